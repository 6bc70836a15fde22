// What CloudFormation requires of a root template and its nested templates, checked on the
// templates themselves (test/package on what `serverless package` wrote, test/stacks on
// stacks/index.js's output): each within the quotas, each reference resolved within its own
// template, each nested stack given exactly its parameters. Written apart from stacks/index.js, so
// that the split is not checked by its own code.

export type Template = { Parameters?: Record<string, any>; Resources: Record<string, any>; Outputs?: Record<string, any> };

/** CloudFormation's quotas per template (User Guide, "Understand CloudFormation quotas"); 1 MB taken as 10^6 bytes. */
export const QUOTAS = { resources: 500, parameters: 200, outputs: 200, templateBytes: 1000000, parameterValueBytes: 4096 };

const PSEUDO_PARAMETERS = new Set([
  'AWS::AccountId',
  'AWS::NotificationARNs',
  'AWS::NoValue',
  'AWS::Partition',
  'AWS::Region',
  'AWS::StackId',
  'AWS::StackName',
  'AWS::URLSuffix',
]);

type Reference = { id: string; attr?: string; kind: 'Ref' | 'Fn::GetAtt' | 'Fn::Sub' };

/** Every Ref, Fn::GetAtt and Fn::Sub placeholder in `value` (a Sub's own variables excluded). */
export const references = (value: unknown, out: Reference[] = []): Reference[] => {
  if (Array.isArray(value)) value.forEach((v) => references(v, out));
  else if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    const [key, arg] = entries.length === 1 ? entries[0] : [undefined, undefined];
    if (key === 'Ref') out.push({ id: String(arg), kind: 'Ref' });
    else if (key === 'Fn::GetAtt') {
      const [id, ...attr] = Array.isArray(arg) ? arg : String(arg).split('.');
      out.push({ id, attr: attr.join('.'), kind: 'Fn::GetAtt' });
    } else if (key === 'Fn::Sub') {
      const [text, vars] = typeof arg === 'string' ? [arg, {}] : (arg as [string, Record<string, unknown>]);
      for (const [, name] of text.matchAll(/\$\{([^!}][^}]*)\}/g)) {
        const [id, ...attr] = name.split('.');
        if (!(id in vars)) out.push({ id, ...(attr.length > 0 ? { attr: attr.join('.') } : {}), kind: 'Fn::Sub' });
      }
      references(vars, out);
    } else entries.forEach(([, v]) => references(v, out));
  }
  return out;
};

export const dependsOn = (resource: { DependsOn?: string | string[] }): string[] =>
  resource.DependsOn === undefined ? [] : [resource.DependsOn].flat();

/**
 * What in `template` CloudFormation would refuse, as sentences: a reference to anything but a
 * resource, parameter or pseudo parameter of the same template (a GetAtt, to anything but a
 * resource), a DependsOn on anything but a resource of the same template, a dependency cycle.
 */
export const unresolvedReferences = (template: Template): string[] => {
  const resources = new Set(Object.keys(template.Resources));
  const parameters = new Set(Object.keys(template.Parameters ?? {}));
  const problems: string[] = [];
  const check = (where: string, value: unknown) => {
    for (const ref of references(value)) {
      const attr = ref.attr !== undefined;
      const ok = resources.has(ref.id) || (!attr && (parameters.has(ref.id) || PSEUDO_PARAMETERS.has(ref.id)));
      if (!ok) problems.push(`${where}: ${ref.kind} ${ref.id}${attr ? `.${ref.attr}` : ''} is not in this template`);
    }
  };
  for (const [id, resource] of Object.entries(template.Resources)) {
    check(id, resource);
    for (const dep of dependsOn(resource))
      if (!resources.has(dep)) problems.push(`${id}: DependsOn ${dep} is not a resource of this template`);
  }
  check('Outputs', template.Outputs ?? {});
  // A cycle among the resources (references and DependsOn).
  const edges = (id: string) => [
    ...new Set(
      [...references(template.Resources[id]).map((r) => r.id), ...dependsOn(template.Resources[id])].filter((d) => resources.has(d)),
    ),
  ];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string): string | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return id;
    state.set(id, 'open');
    for (const next of edges(id)) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    state.set(id, 'done');
    return undefined;
  };
  for (const id of resources) {
    const cycle = visit(id);
    if (cycle) {
      problems.push(`a dependency cycle through ${cycle}`);
      break;
    }
  }
  return problems;
};

/** The quotas `template` exceeds, as sentences (its size as CloudFormation reads it: the JSON that is uploaded). */
export const quotaViolations = (template: Template, json = JSON.stringify(template)): string[] => {
  const problems: string[] = [];
  const count = (section: 'Resources' | 'Parameters' | 'Outputs') => Object.keys(template[section] ?? {}).length;
  if (count('Resources') > QUOTAS.resources) problems.push(`${count('Resources')} resources`);
  if (count('Parameters') > QUOTAS.parameters) problems.push(`${count('Parameters')} parameters`);
  if (count('Outputs') > QUOTAS.outputs) problems.push(`${count('Outputs')} outputs`);
  if (Buffer.byteLength(json) > QUOTAS.templateBytes) problems.push(`${Buffer.byteLength(json)} bytes`);
  return problems;
};

/** The root template's nested stacks: logical id, the file its TemplateURL names, the parameters it passes. */
export const nestedStacks = (root: Template): { id: string; file: string; parameters: Record<string, unknown> }[] =>
  Object.entries(root.Resources)
    .filter(([, r]) => r.Type === 'AWS::CloudFormation::Stack')
    .map(([id, r]) => {
      const file = JSON.stringify(r.Properties.TemplateURL).match(/[\w-]+\.json/)?.[0];
      if (!file) throw new Error(`${id}: no template file in its TemplateURL`);
      return { id, file, parameters: r.Properties.Parameters ?? {} };
    });

/**
 * One template's view of the root and nested templates, as CloudFormation resolves them: every
 * resource of every template by its logical id (the nested stacks themselves left out), each
 * nested parameter replaced by what its parent passes, and a stack output read by its value. So a
 * check written against a single template reads the split one unchanged.
 */
export const flatten = (root: Template, nested: Record<string, Template>): Record<string, any> => {
  const stacks = nestedStacks(root);
  const outputOf = (stackId: string, name: string) => {
    const stack = stacks.find((s) => s.id === stackId)!;
    return nested[stack.file].Outputs![name].Value;
  };
  const substitute = (value: any, parameters: Record<string, any>): any => {
    if (Array.isArray(value)) return value.map((v) => substitute(v, parameters));
    if (value === null || typeof value !== 'object') return value;
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'Ref' && value.Ref in parameters) return substitute(parameters[value.Ref], {});
    if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const arg = value['Fn::GetAtt'];
      const [id, attr] = Array.isArray(arg) ? arg : [arg.slice(0, arg.indexOf('.')), arg.slice(arg.indexOf('.') + 1)];
      if (typeof attr === 'string' && attr.startsWith('Outputs.') && stacks.some((s) => s.id === id))
        return substitute(outputOf(id, attr.slice('Outputs.'.length)), {});
    }
    if (keys.length === 1 && keys[0] === 'Fn::Sub') {
      const arg = value['Fn::Sub'];
      const [text, vars] = typeof arg === 'string' ? [arg, {}] : arg;
      const newVars = substitute(vars, parameters);
      const inline = (v: any) => (v.Ref ? `\${${v.Ref}}` : v['Fn::GetAtt'] ? `\${${[v['Fn::GetAtt']].flat().join('.')}}` : undefined);
      const fromOutput = (v: any) => JSON.stringify(v?.['Fn::GetAtt'] ?? '').includes('Outputs.');
      const newText = text.replace(/\$\{([^!}][^}]*)\}/g, (whole: string, name: string) => {
        // A variable the split added to read a stack output reads as the placeholder it replaced.
        if (name in vars && fromOutput(vars[name]) && inline(newVars[name])) {
          const placeholder = inline(newVars[name])!;
          delete newVars[name];
          return placeholder;
        }
        if (name in vars || !(name in parameters)) return whole;
        const v = substitute(parameters[name], {});
        if (v.Ref) return `\${${v.Ref}}`;
        if (v['Fn::GetAtt']) return `\${${v['Fn::GetAtt'].join('.')}}`;
        newVars[name] = v;
        return whole;
      });
      return { 'Fn::Sub': Object.keys(newVars).length > 0 ? [newText, newVars] : newText };
    }
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, substitute(v, parameters)]));
  };
  const out: Record<string, any> = {};
  for (const [id, r] of Object.entries(root.Resources)) if (r.Type !== 'AWS::CloudFormation::Stack') out[id] = substitute(r, {});
  for (const stack of stacks)
    for (const [id, r] of Object.entries(nested[stack.file].Resources)) {
      if (id in out) throw new Error(`${id} is in two templates`);
      out[id] = substitute(r, stack.parameters);
    }
  return out;
};
