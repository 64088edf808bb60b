import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

// A renderer for the Helm chart in deploy/helm/, for the tests (no helm binary can be had here): Go's
// text/template as Helm uses it (actions with `{{-`/`-}}` trimming, comments, pipelines, parentheses,
// variables, if/else if/else, with, range, define, include/template) and the Sprig functions the
// chart uses. Anything else throws, so the chart cannot silently use what the test does not render.
// Faithful where it matters for the output: Go's number printing (1e+06), "<no value>" for a missing
// key (Helm prints it as ""), a field of a missing value is an error ("nil pointer evaluating").

type Value = unknown;
type Scope = Map<string, Value>;

interface Operand {
  kind: 'string' | 'number' | 'bool' | 'nil' | 'field' | 'var' | 'ident' | 'pipe';
  value?: string | number | boolean;
  path?: string[];
  pipe?: Pipeline;
}
interface Pipeline {
  declare?: string[];
  commands: Operand[][];
}
type Node =
  | { type: 'text'; text: string }
  | { type: 'output'; pipe: Pipeline }
  | { type: 'if'; branches: { cond?: Pipeline; body: Node[] }[] }
  | { type: 'with'; pipe: Pipeline; body: Node[]; otherwise: Node[] }
  | { type: 'range'; pipe: Pipeline; body: Node[]; otherwise: Node[] }
  | { type: 'template'; name: string; pipe?: Pipeline };

export class TemplateError extends Error {
  override name = 'TemplateError';
}

// ---------------------------------------------------------------------------------------------------
// Lexing and parsing

interface Token {
  type: 'text' | 'action';
  text: string;
}

function lex(source: string, file: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  let trimNext = false;
  while (at < source.length) {
    const open = source.indexOf('{{', at);
    let text = source.slice(at, open === -1 ? source.length : open);
    if (trimNext) text = text.replace(/^\s+/, '');
    trimNext = false;
    if (open === -1) {
      tokens.push({ type: 'text', text });
      break;
    }
    let inner = open + 2;
    const trimLeft = /^-\s/.test(source.slice(inner, inner + 2));
    if (trimLeft) {
      text = text.replace(/\s+$/, '');
      inner += 1;
    }
    tokens.push({ type: 'text', text });
    // Find the closing }} outside quotes.
    let end = inner;
    let quote: string | undefined;
    for (; end < source.length; end += 1) {
      const char = source[end]!;
      if (quote) {
        if (char === '\\' && quote === '"') end += 1;
        else if (char === quote) quote = undefined;
      } else if (char === '"' || char === '`') quote = char;
      else if (source.startsWith('}}', end)) break;
    }
    if (end >= source.length) throw new TemplateError(`${file}: unclosed action`);
    let content = source.slice(inner, end);
    if (/\s-$/.test(content)) {
      content = content.slice(0, -1);
      trimNext = true;
    }
    content = content.trim();
    if (!(content.startsWith('/*') && content.endsWith('*/'))) tokens.push({ type: 'action', text: content });
    at = end + 2;
  }
  return tokens;
}

function tokenizeExpression(text: string, file: string): string[] {
  const parts: string[] = [];
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (/\s/.test(char)) {
      at += 1;
    } else if (char === '"') {
      let end = at + 1;
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      parts.push(text.slice(at, end + 1));
      at = end + 1;
    } else if (char === '`') {
      const end = text.indexOf('`', at + 1);
      parts.push(text.slice(at, end + 1));
      at = end + 1;
    } else if ('()|'.includes(char)) {
      parts.push(char);
      at += 1;
    } else if (text.startsWith(':=', at) || (char === '=' && text[at - 1] !== ':')) {
      parts.push(text.startsWith(':=', at) ? ':=' : '=');
      at += text.startsWith(':=', at) ? 2 : 1;
    } else {
      const match = /^[^\s()|"`]+/.exec(text.slice(at));
      if (!match) throw new TemplateError(`${file}: cannot read "${text}"`);
      let word = match[0];
      if (word.endsWith(',')) word = word.slice(0, -1);
      parts.push(word);
      at += match[0].length;
    }
  }
  return parts;
}

function parsePipeline(text: string, file: string): Pipeline {
  const parts = tokenizeExpression(text, file);
  let declare: string[] | undefined;
  const assign = parts.findIndex((part) => part === ':=' || part === '=');
  if (assign !== -1) {
    declare = parts.slice(0, assign);
    if (!declare.every((name) => /^\$\w*$/.test(name))) throw new TemplateError(`${file}: bad variable in "${text}"`);
    parts.splice(0, assign + 1);
  }
  let at = 0;
  const pipeline = (): Pipeline => {
    const commands: Operand[][] = [[]];
    while (at < parts.length) {
      const part = parts[at]!;
      if (part === ')') break;
      at += 1;
      if (part === '|') {
        commands.push([]);
      } else if (part === '(') {
        const inner = pipeline();
        if (parts[at] !== ')') throw new TemplateError(`${file}: unclosed ( in "${text}"`);
        at += 1;
        commands[commands.length - 1]!.push({ kind: 'pipe', pipe: inner });
      } else {
        commands[commands.length - 1]!.push(operand(part, file));
      }
    }
    if (commands.some((command) => command.length === 0))
      throw new TemplateError(`${file}: empty command in "${text}"`);
    return { commands };
  };
  const result = pipeline();
  if (at !== parts.length) throw new TemplateError(`${file}: unexpected ) in "${text}"`);
  return { ...result, declare };
}

function operand(part: string, file: string): Operand {
  if (part.startsWith('"')) return { kind: 'string', value: JSON.parse(part) as string };
  if (part.startsWith('`')) return { kind: 'string', value: part.slice(1, -1) };
  if (/^-?\d+(\.\d+)?$/.test(part)) return { kind: 'number', value: Number(part) };
  if (part === 'true' || part === 'false') return { kind: 'bool', value: part === 'true' };
  if (part === 'nil') return { kind: 'nil' };
  if (part === '.') return { kind: 'field', path: [] };
  if (part.startsWith('.')) return { kind: 'field', path: part.slice(1).split('.') };
  if (part.startsWith('$')) {
    const [name, ...rest] = part.split('.');
    return { kind: 'var', value: name, path: rest };
  }
  if (/^[A-Za-z_]\w*$/.test(part)) return { kind: 'ident', value: part };
  throw new TemplateError(`${file}: cannot read "${part}"`);
}

function parseTemplate(source: string, file: string, defines: Map<string, Node[]>): Node[] {
  const tokens = lex(source, file);
  let at = 0;
  const block = (ends: RegExp): { nodes: Node[]; closer: string } => {
    const nodes: Node[] = [];
    while (at < tokens.length) {
      const token = tokens[at++]!;
      if (token.type === 'text') {
        if (token.text) nodes.push({ type: 'text', text: token.text });
        continue;
      }
      const action = token.text;
      if (ends.test(action)) return { nodes, closer: action };
      const [keyword] = action.split(/\s+/, 1);
      const rest = action.slice(keyword!.length).trim();
      if (keyword === 'if') {
        const branches: { cond?: Pipeline; body: Node[] }[] = [];
        let cond: Pipeline | undefined = parsePipeline(rest, file);
        for (;;) {
          const { nodes: body, closer } = block(/^(else|end)\b/);
          branches.push({ cond, body });
          if (closer === 'end') break;
          const elseIf = /^else\s+if\s+(.+)$/.exec(closer);
          if (elseIf) cond = parsePipeline(elseIf[1]!, file);
          else {
            cond = undefined;
            branches.push({ body: block(/^end$/).nodes });
            break;
          }
        }
        nodes.push({ type: 'if', branches });
      } else if (keyword === 'with' || keyword === 'range') {
        const pipe = parsePipeline(rest, file);
        const { nodes: body, closer } = block(/^(else|end)$/);
        const otherwise = closer === 'else' ? block(/^end$/).nodes : [];
        nodes.push({ type: keyword, pipe, body, otherwise });
      } else if (keyword === 'define') {
        const name = JSON.parse(rest) as string;
        defines.set(name, block(/^end$/).nodes);
      } else if (keyword === 'template') {
        const [, name, pipe] = /^("[^"]*")\s*(.*)$/.exec(rest) ?? [];
        if (!name) throw new TemplateError(`${file}: bad template action "${action}"`);
        nodes.push({
          type: 'template',
          name: JSON.parse(name) as string,
          pipe: pipe ? parsePipeline(pipe, file) : undefined,
        });
      } else if (['else', 'end', 'block', 'break', 'continue'].includes(keyword!)) {
        throw new TemplateError(`${file}: unexpected "${action}"`);
      } else {
        nodes.push({ type: 'output', pipe: parsePipeline(action, file) });
      }
    }
    if (ends.source !== '^$never') throw new TemplateError(`${file}: missing {{ end }}`);
    return { nodes, closer: '' };
  };
  return block(/^$never/).nodes;
}

// ---------------------------------------------------------------------------------------------------
// Values as Go sees them

const isMap = (value: Value): value is Record<string, Value> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Go template truth: false, 0, nil, "" and empty lists and maps are false. */
export function truthy(value: Value): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isMap(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * fmt's %v of a float64 (Helm reads every number of values.yaml as one): the shortest digits, in
 * exponent form from 1e+06 on (1000000 prints as 1e+06, the usual Helm trap) and below 1e-04.
 */
export function goNumber(value: number): string {
  if (value === 0) return '0';
  const [mantissa, power] = value.toExponential().split('e') as [string, string];
  const exponent = Number(power);
  if (exponent < -4 || exponent >= 6) {
    return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
  }
  return String(value);
}

function printed(value: Value): string {
  if (value === undefined || value === null) return '<no value>';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return goNumber(value);
  if (typeof value === 'bigint') return String(value); // an int64 (the int function)
  if (typeof value === 'boolean') return String(value);
  throw new TemplateError(`printing a ${Array.isArray(value) ? 'list' : 'map'} (${JSON.stringify(value)}): use toYaml`);
}
const asText = (value: Value) => (value === undefined || value === null ? '' : printed(value));

// ---------------------------------------------------------------------------------------------------
// Evaluation

export interface RenderContext {
  defines: Map<string, Node[]>;
  root: Value;
}

function field(base: Value, path: readonly string[], where: string): Value {
  let value = base;
  for (const [index, key] of path.entries()) {
    if (value === undefined || value === null) {
      throw new TemplateError(
        `${where}: nil pointer evaluating interface {}.${key} (.${path.slice(0, index + 1).join('.')})`,
      );
    }
    if (!isMap(value)) throw new TemplateError(`${where}: cannot read .${key} of ${JSON.stringify(value)}`);
    value = Object.hasOwn(value, key) ? value[key] : undefined;
  }
  return value;
}

function functions(context: RenderContext, where: string): Record<string, (...args: Value[]) => Value> {
  return {
    include: (name, data) =>
      renderNodes(context, definition(context, name as string, where), data, new Map([['$', context.root]])),
    default: (fallback, given) => (truthy(given) ? given : fallback),
    quote: (...args) =>
      args
        .filter((arg) => arg !== undefined && arg !== null)
        .map((arg) => JSON.stringify(printed(arg)))
        .join(' '),
    toYaml: (value) =>
      value === undefined || value === null
        ? 'null'
        : stringifyYaml(value, { sortMapEntries: true, lineWidth: 0 }).replace(/\n$/, ''),
    indent: (width, text) => {
      const pad = ' '.repeat(width as number);
      return pad + asText(text).split('\n').join(`\n${pad}`);
    },
    nindent: (width, text) => {
      const pad = ' '.repeat(width as number);
      return `\n${pad}${asText(text).split('\n').join(`\n${pad}`)}`;
    },
    trunc: (length, text) => asText(text).slice(0, length as number),
    trimSuffix: (suffix, text) => {
      const value = asText(text);
      return value.endsWith(suffix as string) ? value.slice(0, -(suffix as string).length) : value;
    },
    printf: (format, ...args) => {
      let index = 0;
      return (format as string).replace(/%[sdvq%]/g, (verb) => {
        if (verb === '%%') return '%';
        const arg = args[index++];
        return verb === '%q' ? JSON.stringify(printed(arg)) : printed(arg);
      });
    },
    required: (message, value) => {
      if (value === undefined || value === null || value === '') throw new TemplateError(message as string);
      return value;
    },
    fail: (message) => {
      throw new TemplateError(message as string);
    },
    not: (value) => !truthy(value),
    and: (...args) => args.find((arg) => !truthy(arg)) ?? args[args.length - 1],
    or: (...args) => args.find((arg) => truthy(arg)) ?? args[args.length - 1],
    eq: (first, ...others) => others.some((other) => other === first),
    ne: (first, second) => first !== second,
    join: (separator, list) => ((list ?? []) as Value[]).map(printed).join(separator as string),
    toString: (value: Value) => asText(value),
    // Sprig's int: a number or numeric text as an int64, anything else 0.
    int: (value) => {
      const number = Math.trunc(Number(typeof value === 'bigint' ? value : (value ?? 0)));
      return BigInt(Number.isFinite(number) ? number : 0);
    },
  };
}

function definition(context: RenderContext, name: string, where: string): Node[] {
  const nodes = context.defines.get(name);
  if (!nodes) throw new TemplateError(`${where}: no template "${name}"`);
  return nodes;
}

function evaluate(context: RenderContext, pipe: Pipeline, dot: Value, scope: Scope, where: string): Value {
  const funcs = functions(context, where);
  let piped: Value;
  let first = true;
  for (const command of pipe.commands) {
    const [head, ...rest] = command;
    const value = (item: Operand): Value => {
      switch (item.kind) {
        case 'string':
        case 'number':
        case 'bool':
          return item.value;
        case 'nil':
          return null;
        case 'field':
          return field(dot, item.path!, where);
        case 'var': {
          if (!scope.has(item.value as string)) throw new TemplateError(`${where}: undefined variable ${item.value}`);
          return field(scope.get(item.value as string), item.path!, where);
        }
        case 'pipe':
          return evaluate(context, item.pipe!, dot, scope, where);
        case 'ident': {
          const name = item.value as string;
          if (!funcs[name]) throw new TemplateError(`${where}: function "${name}" not defined (the test renderer)`);
          return funcs[name]!();
        }
      }
    };
    if (head!.kind === 'ident') {
      const name = head!.value as string;
      const func = funcs[name];
      if (!func) throw new TemplateError(`${where}: function "${name}" not defined (the test renderer)`);
      const args = rest.map(value);
      if (!first) args.push(piped);
      piped = func(...args);
    } else {
      if (rest.length > 0 || !first) throw new TemplateError(`${where}: cannot give arguments to a value`);
      piped = value(head!);
    }
    first = false;
  }
  return piped;
}

function renderNodes(
  context: RenderContext,
  nodes: readonly Node[],
  dot: Value,
  outer: Scope,
  where = 'template',
): string {
  const scope = new Map(outer);
  let out = '';
  for (const node of nodes) {
    switch (node.type) {
      case 'text':
        out += node.text;
        break;
      case 'output': {
        const value = evaluate(context, node.pipe, dot, scope, where);
        if (node.pipe.declare) for (const name of node.pipe.declare) scope.set(name, value);
        else out += printed(value);
        break;
      }
      case 'if': {
        const branch = node.branches.find(
          (item) => !item.cond || truthy(evaluate(context, item.cond, dot, scope, where)),
        );
        if (branch) out += renderNodes(context, branch.body, dot, scope, where);
        break;
      }
      case 'with': {
        const value = evaluate(context, node.pipe, dot, scope, where);
        out += truthy(value)
          ? renderNodes(context, node.body, value, scope, where)
          : renderNodes(context, node.otherwise, dot, scope, where);
        break;
      }
      case 'range': {
        const value = evaluate(context, node.pipe, dot, scope, where);
        const entries: [Value, Value][] = Array.isArray(value)
          ? value.map((item, index) => [index, item])
          : isMap(value)
            ? Object.keys(value)
                .sort()
                .map((key) => [key, value[key]])
            : [];
        if (entries.length === 0) out += renderNodes(context, node.otherwise, dot, scope, where);
        for (const [key, item] of entries) {
          const inner = new Map(scope);
          const names = node.pipe.declare ?? [];
          if (names.length === 1) inner.set(names[0]!, item);
          if (names.length === 2) {
            inner.set(names[0]!, key);
            inner.set(names[1]!, item);
          }
          out += renderNodes(context, node.body, item, inner, where);
        }
        break;
      }
      case 'template':
        out += renderNodes(
          context,
          definition(context, node.name, where),
          node.pipe ? evaluate(context, node.pipe, dot, scope, where) : undefined,
          new Map([['$', context.root]]),
          where,
        );
        break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------
// The chart

/** Values merged as Helm merges -f/--set over values.yaml: maps key by key, anything else replaced. */
export function mergeValues(base: Value, override: Value): Value {
  if (!isMap(base) || !isMap(override)) return override === undefined ? base : override;
  const merged: Record<string, Value> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    if (value === null) delete merged[key];
    else merged[key] = mergeValues(base[key], value);
  }
  return merged;
}

export interface Rendered {
  values: Record<string, Value>;
  /** templates/<file> → its output (YAML), as `helm template` prints it under "# Source:". */
  files: Map<string, string>;
  notes: string;
}

/** `helm template RELEASE CHART_DIR -f override` for this chart, without helm. */
export function renderChart(
  chartDir: string,
  options: { values?: Record<string, Value>; release?: string; namespace?: string; isUpgrade?: boolean } = {},
): Rendered {
  const chart = parseYaml(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8')) as Record<string, Value>;
  const defaults = parseYaml(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8')) as Record<string, Value>;
  const values = mergeValues(defaults, options.values ?? {}) as Record<string, Value>;
  const capitalised = Object.fromEntries(
    Object.entries(chart).map(([key, value]) => [key[0]!.toUpperCase() + key.slice(1), value]),
  );
  const root = {
    Values: values,
    Chart: capitalised,
    Release: {
      Name: options.release ?? 'reversal',
      Namespace: options.namespace ?? 'default',
      Service: 'Helm',
      IsInstall: !options.isUpgrade,
      IsUpgrade: Boolean(options.isUpgrade),
      Revision: options.isUpgrade ? 2 : 1,
    },
    Template: { BasePath: `${chart.name as string}/templates` },
  };
  const defines = new Map<string, Node[]>();
  const templatesDir = path.join(chartDir, 'templates');
  const parsed = readdirSync(templatesDir)
    .sort()
    .map((name) => ({
      name,
      nodes: parseTemplate(readFileSync(path.join(templatesDir, name), 'utf8'), name, defines),
    }));
  const context: RenderContext = { defines, root };
  const files = new Map<string, string>();
  let notes = '';
  for (const { name, nodes } of parsed) {
    if (name.startsWith('_')) continue;
    const where = `templates/${name}`;
    const scope: Scope = new Map([['$', root]]);
    const output = renderNodes(context, nodes, root, scope, where).replaceAll('<no value>', '');
    if (name === 'NOTES.txt') notes = output;
    else files.set(where, output);
  }
  return { values, files, notes };
}

/** The Kubernetes objects of a rendering: each file's YAML documents, empty ones left out. */
export function manifestsOf(rendered: Rendered): { source: string; object: Record<string, Value> }[] {
  const found: { source: string; object: Record<string, Value> }[] = [];
  for (const [source, text] of rendered.files) {
    for (const document of text.split(/^---\s*$/m)) {
      const object = parseYaml(document) as Record<string, Value> | null;
      if (object) found.push({ source, object });
    }
  }
  return found;
}
