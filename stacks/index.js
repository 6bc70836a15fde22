// The compiled CloudFormation template, split into a root stack and nested stacks of functions, so
// that every template stays within CloudFormation's quotas (LIMITS). One function per route is a
// rule of the design, and each brings its log group, its API permission, integration and routes:
// about 930 resources in one template, past the 500 a stack may hold. stacks/serverless-plugin.js
// applies splitTemplate to what osls compiled; test/package checks every template it writes.
//
// What moves: each AWS::Lambda::Function, with every resource that refers (Ref, Fn::GetAtt,
// Fn::Sub) to that one function's resources and to no other function's (its permission, its
// integration, the routes to that integration, its event source mapping or invoke config), and
// its log group (a resource that refers to nothing, that only that function's resources depend
// on). Everything else stays in the root stack: the tables, buckets, roles, queue, search database,
// the HTTP API and its stage, the /json/ route, the managed-instances network. A function's group
// goes to the nested stack its name hashes to (STACK_COUNT of them), so adding or removing a route
// moves no other function: a named resource (a function, its log group) that moved between stacks
// would be created in its new stack before its old stack deleted it, and the name would clash.
//
// How references cross: a nested template gets a String parameter for each root resource it refers
// to, named as the resource for a Ref (so `{"Ref": "HttpApi"}` and `${HttpApi}` read the same) and
// as resource and attribute for a Fn::GetAtt (`SearchClusterDBClusterArn`); the root passes it. The
// root refers to a nested resource through an output of its stack. A DependsOn on a resource of
// another template becomes a DependsOn of the nested stack itself (on the root resource, or on the
// other nested stack), so what was ordered stays ordered. A root resource that refers to a
// function's resource, while that function's stack refers to the root resource (directly or
// through others), would make the two depend on each other: the split refuses it and names the
// cycle. Build such an ARN from the function's name instead, as serverless.yml's role does.
const crypto = require('node:crypto');

/**
 * CloudFormation's quotas per template (AWS CloudFormation User Guide, "Understand CloudFormation
 * quotas"): 500 resources, 200 parameters, 200 outputs, 1 MB for a template read from S3 (taken
 * as 1,000,000 bytes), names of 255 characters at most.
 */
const LIMITS = { resources: 500, parameters: 200, outputs: 200, templateBytes: 1000000, nameLength: 255 };

/**
 * Nested stacks of functions. About 175 functions in 8 stacks: about 22 functions (130 resources)
 * each, the fullest under 200, far from 500 and with room for the routes to come. Changing it moves
 * most functions to another stack, which a deployed stage cannot take in one update (see above).
 */
const STACK_COUNT = 8;

const isPseudo = (name) => name.startsWith('AWS::');
const alnum = (s) => s.replace(/[^A-Za-z0-9]/g, '');

/** The logical id and attribute of a Fn::GetAtt (`[id, attr]` or `"id.attr"`). */
const getAttParts = (value) => {
  if (Array.isArray(value)) return [value[0], String(value[1])];
  const dot = String(value).indexOf('.');
  return [value.slice(0, dot), value.slice(dot + 1)];
};

/** Fn::Sub's `${name}` and `${id.attr}` placeholders (not `${!literal}`). */
const SUB_PLACEHOLDER = /\$\{([^!}][^}]*)\}/g;

/**
 * Every reference in `value`: `{ id, attr? }` for each Ref, Fn::GetAtt and Fn::Sub placeholder
 * (a Sub's own variables excluded). Pseudo parameters included; the caller tells resources apart.
 */
const referencesIn = (value, out = []) => {
  if (Array.isArray(value)) {
    for (const v of value) referencesIn(v, out);
  } else if (value && typeof value === 'object') {
    const keys = Object.keys(value);
    if (keys.length === 1 && keys[0] === 'Ref' && typeof value.Ref === 'string') {
      out.push({ id: value.Ref });
    } else if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
      const [id, attr] = getAttParts(value['Fn::GetAtt']);
      out.push({ id, attr });
    } else if (keys.length === 1 && keys[0] === 'Fn::Sub') {
      const sub = value['Fn::Sub'];
      const [text, vars] = typeof sub === 'string' ? [sub, {}] : sub;
      for (const [, name] of text.matchAll(SUB_PLACEHOLDER)) {
        const [id, attr] = name.includes('.') ? [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)] : [name];
        if (!(id in vars)) out.push(attr === undefined ? { id } : { id, attr });
      }
      referencesIn(vars, out);
    } else {
      for (const v of Object.values(value)) referencesIn(v, out);
    }
  }
  return out;
};

const dependsOnOf = (resource) => (resource.DependsOn === undefined ? [] : [resource.DependsOn].flat());

/** The ids of resources a resource refers to or depends on, among `ids`. */
const resourceRefs = (resource, ids) => {
  const found = new Set();
  for (const { id } of referencesIn(resource)) if (ids.has(id)) found.add(id);
  return found;
};

/**
 * Rewrites the references of `value` (a copy is returned): `rewrite(ref)` returns the replacement
 * of a Ref or Fn::GetAtt (`{ id, attr? }`), or undefined to keep it. A Fn::Sub placeholder whose
 * replacement is a Ref of another name is renamed in the text; any other replacement becomes a
 * variable of the Sub.
 */
const rewriteReferences = (value, rewrite) => {
  if (Array.isArray(value)) return value.map((v) => rewriteReferences(v, rewrite));
  if (!value || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  if (keys.length === 1 && keys[0] === 'Ref' && typeof value.Ref === 'string') return rewrite({ id: value.Ref }) ?? value;
  if (keys.length === 1 && keys[0] === 'Fn::GetAtt') {
    const [id, attr] = getAttParts(value['Fn::GetAtt']);
    return rewrite({ id, attr }) ?? value;
  }
  if (keys.length === 1 && keys[0] === 'Fn::Sub') {
    const sub = value['Fn::Sub'];
    const [text, vars] = typeof sub === 'string' ? [sub, {}] : sub;
    const newVars = rewriteReferences(vars, rewrite);
    const newText = text.replace(SUB_PLACEHOLDER, (whole, name) => {
      const dot = name.indexOf('.');
      const [id, attr] = dot === -1 ? [name] : [name.slice(0, dot), name.slice(dot + 1)];
      if (id in vars) return whole;
      const replacement = rewrite(attr === undefined ? { id } : { id, attr });
      if (replacement === undefined) return whole;
      if (typeof replacement.Ref === 'string' && Object.keys(replacement).length === 1) return `\${${replacement.Ref}}`;
      const varName = alnum(name);
      newVars[varName] = replacement;
      return `\${${varName}}`;
    });
    return { 'Fn::Sub': Object.keys(newVars).length === 0 ? newText : [newText, newVars] };
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewriteReferences(v, rewrite)]));
};

/** The group (the function's logical id) of each resource that moves out of the root template. */
const functionGroups = (resources) => {
  const ids = new Set(Object.keys(resources));
  const group = new Map();
  for (const [id, r] of Object.entries(resources)) if (r.Type === 'AWS::Lambda::Function') group.set(id, id);
  const refs = new Map(Object.entries(resources).map(([id, r]) => [id, resourceRefs(r, ids)]));
  // A resource that refers to the resources of one function only (and to root resources) joins it;
  // routes refer to integrations, which refer to functions: repeat until nothing joins.
  for (let changed = true; changed;) {
    changed = false;
    for (const [id, r] of Object.entries(resources)) {
      if (group.has(id) || r.Condition !== undefined) continue;
      const groups = new Set([...refs.get(id)].filter((ref) => group.has(ref)).map((ref) => group.get(ref)));
      if (groups.size === 1) {
        group.set(id, [...groups][0]);
        changed = true;
      }
    }
  }
  // A log group refers to nothing: it goes with the one function whose resources refer to it or depend on it.
  const users = new Map();
  for (const [id, r] of Object.entries(resources))
    for (const used of new Set([...refs.get(id), ...dependsOnOf(r)])) {
      if (!users.has(used)) users.set(used, []);
      users.get(used).push(id);
    }
  for (const [id, r] of Object.entries(resources)) {
    if (group.has(id) || r.Type !== 'AWS::Logs::LogGroup' || refs.get(id).size > 0) continue;
    const groups = new Set((users.get(id) ?? []).map((user) => group.get(user)));
    if (groups.size === 1 && !groups.has(undefined)) group.set(id, [...groups][0]);
  }
  return group;
};

/** The nested stack (1 to count) of a function's group: a hash of its logical id, stable as routes come and go. */
const stackIndexOf = (functionId, count) => (crypto.createHash('sha256').update(functionId).digest().readUInt32BE(0) % count) + 1;

const STACK_ID = /^FunctionsStack(\d+)$/;
const stackIdOf = (index) => `FunctionsStack${index}`;
const templateFileOf = (index) => `cloudformation-template-functions-stack-${index}.json`;

/** The nested templates' file names that a root template's stacks read (what a deployment uploads). */
const nestedTemplateFiles = (root) =>
  Object.entries(root.Resources)
    .filter(([id, r]) => r.Type === 'AWS::CloudFormation::Stack' && STACK_ID.test(id))
    .map(([id]) => templateFileOf(Number(STACK_ID.exec(id)[1])));

/** Throws if the resources' Ref/GetAtt/Sub references and DependsOn form a cycle. */
const assertAcyclic = (resources, where) => {
  const ids = new Set(Object.keys(resources));
  const edges = new Map(
    Object.entries(resources).map(([id, r]) => [id, new Set([...resourceRefs(r, ids), ...dependsOnOf(r).filter((d) => ids.has(d))])]),
  );
  const state = new Map();
  const visit = (id, path) => {
    if (state.get(id) === 'done') return;
    if (state.get(id) === 'open') throw new Error(`${where}: circular dependency ${[...path, id].join(' -> ')}`);
    state.set(id, 'open');
    for (const next of edges.get(id)) visit(next, [...path, id]);
    state.set(id, 'done');
  };
  for (const id of ids) visit(id, []);
};

/**
 * The root template and the nested templates: `{ root, nested: [{ id, index, fileName, template }] }`.
 * `templateUrl(fileName)` is the TemplateURL of a nested stack (the deployment bucket's copy).
 * The input is not changed.
 */
const splitTemplate = (template, { templateUrl, stackCount = STACK_COUNT }) => {
  const resources = template.Resources;
  for (const id of Object.keys(resources)) if (STACK_ID.test(id)) throw new Error(`${id}: a logical id the nested stacks use`);
  const group = functionGroups(resources);
  const stackOf = new Map([...group].map(([id, fn]) => [id, stackIndexOf(fn, stackCount)]));
  // The template's Conditions and Mappings stay in the root: a resource that uses them stays there too.
  for (const id of stackOf.keys())
    if (resources[id].Condition !== undefined || /"Fn::(If|FindInMap)"/.test(JSON.stringify(resources[id])))
      throw new Error(`${id}: a function's resource may not use a condition or a mapping (they are not carried into nested stacks)`);

  const stacks = new Map();
  const stack = (index) => {
    if (!stacks.has(index)) {
      stacks.set(index, {
        template: {
          AWSTemplateFormatVersion: '2010-09-09',
          Description: `${template.Description ?? 'The service'}: functions, nested stack ${index} of ${stackCount} (stacks/index.js)`,
          Parameters: {},
          Resources: {},
          Outputs: {},
        },
        parameters: {},
        dependsOn: new Set(),
      });
    }
    return stacks.get(index);
  };
  const nameOf = ({ id, attr }) => (attr === undefined ? id : alnum(`${id}${attr}`));
  /** Where `ref` (a resource of nested stack `index`) is read from outside it: an output of that stack. */
  const output = (index, ref) => {
    const name = nameOf(ref);
    const outputs = stack(index).template.Outputs;
    const value = ref.attr === undefined ? { Ref: ref.id } : { 'Fn::GetAtt': [ref.id, ref.attr] };
    if (outputs[name] && JSON.stringify(outputs[name].Value) !== JSON.stringify(value))
      throw new Error(`nested stack ${index}: two outputs named ${name}`);
    outputs[name] = { Value: value };
    return { 'Fn::GetAtt': [stackIdOf(index), `Outputs.${name}`] };
  };
  const isResource = (id) => Object.hasOwn(resources, id);
  const isRootParameter = (id) => Object.hasOwn(template.Parameters ?? {}, id);

  // The nested stacks' resources, their references to other templates made parameters.
  for (const [id, index] of stackOf) {
    const s = stack(index);
    const resource = rewriteReferences(resources[id], (ref) => {
      if (isPseudo(ref.id) || stackOf.get(ref.id) === index) return undefined;
      if (!isResource(ref.id) && !isRootParameter(ref.id)) return undefined;
      const name = nameOf(ref);
      if (stackOf.get(name) === index) throw new Error(`nested stack ${index}: a parameter ${name} would shadow its resource`);
      const value = stackOf.has(ref.id)
        ? output(stackOf.get(ref.id), ref)
        : ref.attr === undefined
          ? { Ref: ref.id }
          : { 'Fn::GetAtt': [ref.id, ref.attr] };
      if (s.parameters[name] && JSON.stringify(s.parameters[name]) !== JSON.stringify(value))
        throw new Error(`nested stack ${index}: two parameters named ${name}`);
      s.parameters[name] = value;
      s.template.Parameters[name] = { Type: 'String' };
      return { Ref: name };
    });
    const local = [];
    for (const dep of dependsOnOf(resources[id])) {
      if (stackOf.get(dep) === index) local.push(dep);
      else s.dependsOn.add(stackOf.has(dep) ? stackIdOf(stackOf.get(dep)) : dep);
    }
    if (local.length > 0) resource.DependsOn = local.length === 1 && !Array.isArray(resources[id].DependsOn) ? local[0] : local;
    else delete resource.DependsOn;
    s.template.Resources[id] = resource;
  }

  // The root: what stays, its references to nested resources read from their stacks' outputs.
  const toRoot = (value) =>
    rewriteReferences(value, (ref) => (stackOf.has(ref.id) && !isPseudo(ref.id) ? output(stackOf.get(ref.id), ref) : undefined));
  const rootResources = {};
  for (const [id, r] of Object.entries(resources)) {
    if (stackOf.has(id)) continue;
    const resource = toRoot(r);
    if (r.DependsOn !== undefined) {
      const deps = [...new Set(dependsOnOf(r).map((d) => (stackOf.has(d) ? stackIdOf(stackOf.get(d)) : d)))];
      resource.DependsOn = deps.length === 1 && !Array.isArray(r.DependsOn) ? deps[0] : deps;
    }
    rootResources[id] = resource;
  }
  const rootOutputs = template.Outputs === undefined ? undefined : toRoot(template.Outputs);
  const nested = [...stacks.keys()]
    .sort((a, b) => a - b)
    .map((index) => {
      const s = stacks.get(index);
      const deps = [...s.dependsOn].filter((d) => d !== stackIdOf(index)).sort();
      rootResources[stackIdOf(index)] = {
        Type: 'AWS::CloudFormation::Stack',
        Properties: { TemplateURL: templateUrl(templateFileOf(index)), Parameters: s.parameters },
        ...(deps.length > 0 ? { DependsOn: deps } : {}),
      };
      if (Object.keys(s.template.Outputs).length === 0) delete s.template.Outputs;
      return { id: stackIdOf(index), index, fileName: templateFileOf(index), template: s.template };
    });
  const root = { ...template, Resources: rootResources, ...(rootOutputs === undefined ? {} : { Outputs: rootOutputs }) };
  assertAcyclic(rootResources, 'the root template');
  for (const n of nested) assertAcyclic(n.template.Resources, n.fileName);
  return { root, nested };
};

/** What of `template` passes CloudFormation's quotas (LIMITS), as sentences; empty when all do. */
const limitViolations = (template, name) => {
  const count = (section) => Object.keys(template[section] ?? {}).length;
  const problems = [];
  if (count('Resources') > LIMITS.resources) problems.push(`${name}: ${count('Resources')} resources (at most ${LIMITS.resources})`);
  if (count('Parameters') > LIMITS.parameters) problems.push(`${name}: ${count('Parameters')} parameters (at most ${LIMITS.parameters})`);
  if (count('Outputs') > LIMITS.outputs) problems.push(`${name}: ${count('Outputs')} outputs (at most ${LIMITS.outputs})`);
  const bytes = Buffer.byteLength(JSON.stringify(template));
  if (bytes > LIMITS.templateBytes) problems.push(`${name}: ${bytes} bytes (at most ${LIMITS.templateBytes})`);
  for (const section of ['Resources', 'Parameters', 'Outputs'])
    for (const key of Object.keys(template[section] ?? {}))
      if (key.length > LIMITS.nameLength) problems.push(`${name}: the name ${key} is longer than ${LIMITS.nameLength} characters`);
  return problems;
};

module.exports = { LIMITS, STACK_COUNT, limitViolations, nestedTemplateFiles, referencesIn, splitTemplate };
