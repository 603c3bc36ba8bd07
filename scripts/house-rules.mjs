// House rules the linter cannot state: no non-test function over 100 lines, no non-test file over 600
// lines unless it is a data literal. Reads every source file of services/*/src and shared/*/src with the
// TypeScript parser (no type check, so it runs in about a second) and fails on anything not in the
// allowlist below. The allowlist names what is still to split; it may only shrink.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

// `--list` prints everything found; `--over=N` lists functions over N lines instead of the house limit.
const over = process.argv.find((arg) => arg.startsWith('--over='));
const MAX_FUNCTION_LINES = over ? Number(over.slice(7)) : 100;
const MAX_FILE_LINES = 600;

// Still over the limit, each with its owner's plan; remove a line when its function or file is split.
// Keyed by `path#name` (functions) or `path` (files).
const ALLOWED = new Set([]);

const root = fileURLToPath(new URL('..', import.meta.url));
const isTest = (path) =>
  /\.(spec|test|bench)\.tsx?$/.test(path) || /\/(test|testing|__tests__)\//.test(path) || /\/testing\.ts$/.test(path);

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== 'dist') yield* sourceFiles(path);
    } else if (/\.(ts|tsx|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') && !isTest(path)) yield path;
  }
}

const srcDirs = ['services', 'shared'].flatMap((top) =>
  readdirSync(join(root, top), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(root, top, entry.name, 'src')),
);

const lineOf = (file, pos) => file.getLineAndCharacterOfPosition(pos).line;
const lines = (file, node) => lineOf(file, node.getEnd()) - lineOf(file, node.getStart(file)) + 1;

function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name && (ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) return node.name.text;
  let parent = node.parent;
  while (parent && (ts.isParenthesizedExpression(parent) || ts.isAsExpression(parent) || ts.isSatisfiesExpression(parent)))
    parent = parent.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) &&
    ts.isIdentifier(parent.name)
  )
    return parent.name.text;
  if (parent && ts.isCallExpression(parent) && ts.isPropertyAccessExpression(parent.expression))
    return `(callback of ${parent.expression.name.text})`;
  if (parent && ts.isCallExpression(parent) && ts.isIdentifier(parent.expression)) return `(callback of ${parent.expression.text})`;
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

// A data literal: an object, array, string, number or template, possibly wrapped in `as const` /
// `satisfies` or in a call of a plain function whose arguments are literals.
function isLiteral(node) {
  if (!node) return false;
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) return isLiteral(node.expression);
  if (ts.isObjectLiteralExpression(node))
    return node.properties.every((p) => (ts.isPropertyAssignment(p) ? isLiteral(p.initializer) : ts.isShorthandPropertyAssignment(p)));
  if (ts.isArrayLiteralExpression(node)) return node.elements.every(isLiteral);
  // A helper that builds one entry (`insulate('roof', 'GOOD')`); a schema builder (`z.object`) is code.
  if (ts.isCallExpression(node)) return ts.isIdentifier(node.expression) && node.arguments.every(isLiteral);
  if (ts.isPrefixUnaryExpression(node)) return isLiteral(node.operand);
  return (
    ts.isStringLiteral(node) ||
    ts.isNumericLiteral(node) ||
    ts.isNoSubstitutionTemplateLiteral(node) ||
    ts.isTemplateExpression(node) ||
    ts.isIdentifier(node) ||
    ts.isPropertyAccessExpression(node) ||
    node.kind === ts.SyntaxKind.TrueKeyword ||
    node.kind === ts.SyntaxKind.FalseKeyword ||
    node.kind === ts.SyntaxKind.NullKeyword
  );
}
// The lines of a file in top-level declarations whose value is a data literal (a catalogue tree, a table of
// figures). A file over the limit passes only when it is mostly such data and its other lines are under it.
const dataLines = (file) =>
  file.statements
    .filter((s) => ts.isVariableStatement(s) && s.declarationList.declarations.every((d) => isLiteral(d.initializer)))
    .reduce((n, s) => n + lines(file, s), 0);
const isDataFile = (file, total) => {
  const data = dataLines(file);
  return data >= total / 2 && total - data <= MAX_FILE_LINES;
};

const found = [];
for (const dir of srcDirs) {
  let files;
  try {
    files = [...sourceFiles(dir)];
  } catch {
    continue;
  }
  for (const path of files) {
    const rel = relative(root, path);
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
    const fileLines = file.getLineStarts().length;
    if (fileLines > MAX_FILE_LINES && !isDataFile(file, fileLines)) found.push({ key: rel, what: 'file', lines: fileLines });
    const visit = (node) => {
      if (isFunction(node) && node.body) {
        const n = lines(file, node);
        if (n > MAX_FUNCTION_LINES)
          found.push({ key: `${rel}#${nameOf(node)}`, what: 'function', lines: n, line: lineOf(file, node.getStart(file)) + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}

found.sort((a, b) => b.lines - a.lines);
const functions = found.filter((f) => f.what === 'function');
const files = found.filter((f) => f.what === 'file');
const offending = found.filter((f) => !ALLOWED.has(f.key));
const stale = [...ALLOWED].filter((key) => !found.some((f) => f.key === key));
const verbose = process.argv.includes('--list') || over !== undefined;
if (verbose || offending.length > 0) {
  for (const f of verbose ? found : offending)
    console.log(
      `${f.what === 'file' ? 'file' : 'function'} ${f.lines} lines: ${f.key}${f.line ? `:${f.line}` : ''}${ALLOWED.has(f.key) ? ' (allowed)' : ''}`,
    );
}
console.log(
  `house rules: ${functions.length} functions over ${MAX_FUNCTION_LINES} lines, ${files.length} files over ${MAX_FILE_LINES} lines; ${offending.length} not in the allowlist`,
);
if (stale.length > 0) console.log(`Allowlist entries no longer needed (remove them): ${stale.join(', ')}`);
process.exit(offending.length > 0 || stale.length > 0 ? 1 : 0);
