/**
 * How many elements each page of the built site has. Lighthouse calls a page of more than about
 * 1,400 elements excessive: every element is styled and laid out on a phone's one main thread,
 * and on a mid-range phone that blocking time is what a reader feels. The site's bound is 1,500.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';

export const pageElementBound = 1500;

export interface PageElements {
  /** The page's file, relative to the built site, such as `errors-and-rate-limits/index.html`. */
  page: string;
  elements: number;
}

function elementsIn(node: Nodes): number {
  const own = node.type === 'element' ? 1 : 0;
  if (!('children' in node)) return own;
  return node.children.reduce((sum, child) => sum + elementsIn(child), own);
}

/**
 * The elements of a page as the browser builds them (`document.querySelectorAll('*').length`):
 * the HTML parser's own tree, with the `<html>`, `<head>` and `<body>` it adds when a page leaves
 * them out, and a `<template>`'s content left aside, as the browser leaves it.
 */
export function countElements(html: string): number {
  return elementsIn(fromHtml(html));
}

/** Every HTML page of the built site with its element count, largest first. */
export function builtPageElements(distDirectory: string): PageElements[] {
  return readdirSync(distDirectory, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.html'))
    .map((page) => ({ page, elements: countElements(readFileSync(path.join(distDirectory, page), 'utf8')) }))
    .sort((first, second) => second.elements - first.elements || first.page.localeCompare(second.page));
}

/** The pages over the bound, largest first: empty when every page keeps within it. */
export function pagesOverElementBound(distDirectory: string, bound = pageElementBound): PageElements[] {
  return builtPageElements(distDirectory).filter(({ elements }) => elements > bound);
}

export function overBoundMessage({ page, elements }: PageElements, bound = pageElementBound): string {
  return `${page}: ${elements} elements, over the bound of ${bound} (${elements - bound} too many)`;
}

/**
 * What makes a page large, where it is something that grows with the contract: the elements in
 * the rows or cards of the actions (marked `data-action`, or `data-actions` where several share
 * one) and in the rows of the fields (`data-field`), each counted once, at its outermost mark.
 */
export interface ElementDrivers {
  /** The actions those rows or lists name: one a `data-action`, N for `data-actions="N"`. */
  actions: number;
  actionElements: number;
  fieldRows: number;
  fieldElements: number;
}

export function elementDrivers(html: string): ElementDrivers {
  const drivers: ElementDrivers = { actions: 0, actionElements: 0, fieldRows: 0, fieldElements: 0 };
  const visit = (node: Nodes): void => {
    if (node.type === 'element') {
      const { dataAction, dataActions, dataField } = node.properties;
      if (dataAction !== undefined || dataActions !== undefined) {
        drivers.actions += dataActions === undefined ? 1 : Number(dataActions) || 1;
        drivers.actionElements += elementsIn(node);
        return;
      }
      if (dataField !== undefined) {
        drivers.fieldRows += 1;
        drivers.fieldElements += elementsIn(node);
        return;
      }
    }
    if ('children' in node) for (const child of node.children) visit(child);
  };
  visit(fromHtml(html));
  return drivers;
}

/** The page's address on the site, from its file in `dist/`: `reference/endpoint/index.html` is `/reference/endpoint/`. */
export function pageAddress(page: string): string {
  return `/${page.split(path.sep).join('/')}`.replace(/index\.html$/, '');
}

/** Says what grows the page: the actions, the fields, or neither (then the page's own text). */
export function driversMessage({ actions, actionElements, fieldRows, fieldElements }: ElementDrivers): string {
  const parts = [
    actions > 0 ? `${actionElements} where it lists actions (${actions} named), which grows with the actions the contract has` : '',
    fieldRows > 0 ? `${fieldElements} in the rows of its fields (${fieldRows}), which grow with the fields the contract gives` : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'none of them in rows of actions or fields: the page itself is too long' : `of them ${parts.join(', and ')}`;
}
