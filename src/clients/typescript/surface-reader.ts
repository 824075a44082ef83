/**
 * The public surface of the TypeScript client, read from its built declarations (`dist/*.d.ts`)
 * with the TypeScript compiler's own checker: every name the package's entry exports, what kind
 * of thing it is and its type; a class's and an interface's public members, each method's
 * parameters in order. The types are printed by the checker, so a name re-exported or aliased is
 * seen as the caller sees it.
 */
import path from 'node:path';
import ts from 'typescript';
import type { TypescriptExport, TypescriptMember, TypescriptParameter, TypescriptSurface } from './surface.ts';

const printFlags = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseFullyQualifiedType | ts.TypeFormatFlags.WriteArrayAsGenericType;

function parametersOf(checker: ts.TypeChecker, signature: ts.Signature): TypescriptParameter[] {
  return signature.parameters.map((parameter) => {
    const declaration = parameter.valueDeclaration as ts.ParameterDeclaration | undefined;
    const optional = declaration !== undefined && (declaration.questionToken !== undefined || declaration.initializer !== undefined);
    const rest = declaration?.dotDotDotToken !== undefined;
    const type = checker.typeToString(checker.getTypeOfSymbol(parameter), declaration, printFlags);
    return { name: parameter.name, type: optional ? type.replace(/ \| undefined$/, '') : type, optional, ...(rest ? { rest: true } : {}) };
  });
}

function isPrivate(symbol: ts.Symbol): boolean {
  if (symbol.name.startsWith('#') || symbol.name.startsWith('__#')) return true;
  return (symbol.declarations ?? []).some((declaration) => {
    const flags = ts.getCombinedModifierFlags(declaration);
    return (flags & ts.ModifierFlags.Private) !== 0 || (flags & ts.ModifierFlags.Protected) !== 0;
  });
}

function membersOf(checker: ts.TypeChecker, type: ts.Type, at: ts.Node): Record<string, TypescriptMember> {
  const members: Record<string, TypescriptMember> = {};
  for (const property of checker.getPropertiesOfType(type)) {
    if (isPrivate(property)) continue;
    const optional = (property.flags & ts.SymbolFlags.Optional) !== 0;
    const propertyType = checker.getTypeOfSymbolAtLocation(property, at);
    if ((property.flags & ts.SymbolFlags.Method) !== 0) {
      const signature = propertyType.getCallSignatures()[0];
      members[property.name] = {
        kind: 'method',
        optional,
        type: signature === undefined ? '' : checker.typeToString(signature.getReturnType(), at, printFlags),
        parameters: signature === undefined ? [] : parametersOf(checker, signature),
        ...((signature?.getTypeParameters()?.length ?? 0) > 0 ? { generic: true } : {}),
      };
    } else {
      const accessor = (property.flags & ts.SymbolFlags.Accessor) !== 0;
      const readonly = (property.declarations ?? []).some((declaration) => (ts.getCombinedModifierFlags(declaration) & ts.ModifierFlags.Readonly) !== 0);
      const printed = checker.typeToString(propertyType, at, printFlags);
      members[property.name] = {
        kind: accessor ? 'accessor' : 'property',
        optional,
        type: optional ? printed.replace(/ \| undefined$/, '') : printed,
        ...(readonly ? { readonly: true } : {}),
      };
    }
  }
  return members;
}

/** Reads the surface of the package whose entry declaration is `entry` (`dist/index.d.ts`). */
export function typescriptSurface(entry: string): TypescriptSurface {
  const program = ts.createProgram({ rootNames: [entry], options: { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], skipLibCheck: true } });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(path.resolve(entry));
  if (source === undefined) throw new Error(`The TypeScript client's declarations have no ${entry}.`);
  const module = checker.getSymbolAtLocation(source);
  if (module === undefined) throw new Error(`${entry} exports nothing.`);
  const exports: Record<string, TypescriptExport> = {};
  for (const exported of checker.getExportsOfModule(module).sort((a, b) => a.name.localeCompare(b.name))) {
    const symbol = (exported.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(exported) : exported;
    const declaration = symbol.declarations?.[0] ?? source;
    if ((symbol.flags & ts.SymbolFlags.Class) !== 0) {
      const instance = checker.getDeclaredTypeOfSymbol(symbol);
      const members = membersOf(checker, instance, declaration);
      const constructor = checker.getTypeOfSymbolAtLocation(symbol, declaration).getConstructSignatures()[0];
      if (constructor !== undefined) members.new = { kind: 'method', optional: false, type: exported.name, parameters: parametersOf(checker, constructor) };
      const statics = checker.getTypeOfSymbolAtLocation(symbol, declaration);
      for (const [name, member] of Object.entries(membersOf(checker, statics, declaration))) if (name !== 'prototype') members[`static ${name}`] = member;
      exports[exported.name] = { kind: 'class', members };
    } else if ((symbol.flags & ts.SymbolFlags.Interface) !== 0) {
      exports[exported.name] = { kind: 'interface', members: membersOf(checker, checker.getDeclaredTypeOfSymbol(symbol), declaration) };
    } else if ((symbol.flags & ts.SymbolFlags.TypeAlias) !== 0) {
      const aliased = checker.getDeclaredTypeOfSymbol(symbol);
      const node = ts.isTypeAliasDeclaration(declaration) ? declaration.type : undefined;
      const literals = aliased.isUnion() ? aliased.types.filter((member) => member.isLiteral()).map((member) => checker.typeToString(member)) : [];
      exports[exported.name] = {
        kind: 'type',
        type: node === undefined ? checker.typeToString(aliased, declaration, printFlags | ts.TypeFormatFlags.InTypeAlias) : node.getText().replace(/\s+/g, ' '),
        ...(literals.length > 0 ? { literals } : {}),
      };
    } else if ((symbol.flags & ts.SymbolFlags.Function) !== 0) {
      const signature = checker.getTypeOfSymbolAtLocation(symbol, declaration).getCallSignatures()[0];
      exports[exported.name] = {
        kind: 'function',
        type: checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration, printFlags),
        members: signature === undefined ? {} : { call: { kind: 'method', optional: false, type: checker.typeToString(signature.getReturnType(), declaration, printFlags), parameters: parametersOf(checker, signature) } },
      };
    } else {
      exports[exported.name] = { kind: 'value', type: checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, declaration), declaration, printFlags) };
    }
  }
  for (const entry of Object.keys(exports)) {
    const symbol = checker.getExportsOfModule(module).find((candidate) => candidate.name === entry);
    const target = symbol === undefined ? undefined : (symbol.flags & ts.SymbolFlags.Alias) !== 0 ? checker.getAliasedSymbol(symbol) : symbol;
    const declaration = target?.declarations?.[0];
    const count = declaration !== undefined && (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration) || ts.isTypeAliasDeclaration(declaration)) ? (declaration.typeParameters?.length ?? 0) : 0;
    if (count > 0) exports[entry] = { ...exports[entry], typeParameters: count } as TypescriptExport;
  }
  return { exports };
}
