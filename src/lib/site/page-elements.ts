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
