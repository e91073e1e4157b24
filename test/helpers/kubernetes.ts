import { Ajv, type ErrorObject } from 'ajv';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { parseAllDocuments } from 'yaml';
import { REPO } from './cli.js';

/**
 * Offline validation of Kubernetes manifests. Built-in kinds: the OpenAPI schemas of Kubernetes
 * as the pinned kubernetes-models package compiles them (types, required fields, enums,
 * int-or-string), and, since those schemas let unknown fields through (the API server prunes
 * or, with kubectl's strict validation, refuses them), the package's TypeScript types with the
 * compiler's excess-property check: a misspelt field (`readinesProbe`) fails. Custom resources
 * (NodeFeatureRule, PodMonitor): their CRDs' openAPIV3Schema, committed in
 * test/fixtures/kubernetes-crds with their source, with unknown fields refused as a structural
 * schema's pruning would drop them.
 */

// a parsed manifest is a tree of unknown shape: the validators below say what it must be
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Manifest = Record<string, any>;

export function readManifests(file: string): Manifest[] {
  const text = readFileSync(join(REPO, file), 'utf8');
  return parseAllDocuments(text).map((document, index) => {
    if (document.errors.length > 0) throw new Error(`${file}: document ${index + 1}: ${document.errors[0]!.message}`);
    return document.toJS() as Manifest;
  });
}

/** kubernetes-models' module of a built-in kind: `v1/Namespace`, `apps/v1/DaemonSet`, `rbac.authorization.k8s.io/v1/ClusterRole`. */
function modulePath(manifest: Manifest): string {
  const [group, version] = String(manifest.apiVersion).includes('/') ? String(manifest.apiVersion).split('/') : [undefined, String(manifest.apiVersion)];
  return `kubernetes-models/${group ? `${group}/` : ''}${version}/${String(manifest.kind)}`;
}

const CRDS: Record<string, string> = {
  'nfd.k8s-sigs.io/v1alpha1/NodeFeatureRule': 'nodefeaturerule-v1alpha1.json',
  'monitoring.coreos.com/v1/PodMonitor': 'podmonitor-v1.json',
};

/** A CRD schema as the API server applies it to a create: no field outside `properties` unless preserved. */
function structural(schema: Manifest): Manifest {
  const copy: Manifest = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key.startsWith('x-kubernetes-') || key === 'nullable') continue;
    if (key === 'properties') copy[key] = Object.fromEntries(Object.entries(value as Manifest).map(([k, v]) => [k, structural(v as Manifest)]));
    else if (key === 'items' || key === 'additionalProperties' || key === 'not') copy[key] = typeof value === 'object' ? structural(value as Manifest) : value;
    else if (key === 'anyOf' || key === 'allOf' || key === 'oneOf') copy[key] = (value as Manifest[]).map(structural);
    else copy[key] = value;
  }
  if (schema.nullable === true && typeof schema.type === 'string') copy.type = [schema.type, 'null'];
  if (schema['x-kubernetes-int-or-string'] === true) delete copy.type;
  if (schema.properties && schema.additionalProperties === undefined && schema['x-kubernetes-preserve-unknown-fields'] !== true) copy.additionalProperties = false;
  return copy;
}

const ajv = new Ajv({ allErrors: true, strict: false });

function crdProblems(manifest: Manifest, file: string): string[] {
  const crd = JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'kubernetes-crds', file), 'utf8')) as { openAPIV3Schema: Manifest };
  const schema = structural(crd.openAPIV3Schema);
  // the API server fills these itself; a manifest may give metadata, which ObjectMeta's schema judges
  schema.properties.metadata = { type: 'object' };
  const validate = ajv.compile(schema);
  if (validate(manifest)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''}`);
}

/** The problems of one manifest against its schema; empty when it validates. */
export async function manifestProblems(manifest: Manifest): Promise<string[]> {
  const id = `${String(manifest.apiVersion)}/${String(manifest.kind)}`;
  const crd = CRDS[id];
  if (crd) return crdProblems(manifest, crd);
  const module = (await import(modulePath(manifest))) as Record<string, new (data: unknown) => { validate(): void }>;
  const Model = module[String(manifest.kind)];
  if (!Model) throw new Error(`no model for ${id} in ${modulePath(manifest)}`);
  try {
    new Model(manifest).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}

/**
 * The unknown fields of built-in manifests: each as an object literal typed by its
 * kubernetes-models interface, through the TypeScript compiler. One program for all of them
 * (a few seconds); the diagnostics name the manifest and the field.
 */
export function excessFields(manifests: ReadonlyArray<{ name: string; manifest: Manifest }>): string[] {
  const builtin = manifests.filter(({ manifest }) => !CRDS[`${String(manifest.apiVersion)}/${String(manifest.kind)}`]);
  const lines = builtin.map(({ manifest }, i) => `import type { I${String(manifest.kind)} as T${i} } from '${modulePath(manifest)}';`);
  builtin.forEach(({ manifest }, i) => lines.push(`export const m${i}: T${i} = ${JSON.stringify(manifest)};`));
  const file = join(REPO, 'test', '__manifests__.ts');
  const host = ts.createCompilerHost({});
  const source = lines.join('\n');
  const original = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, onError) => (name === file ? ts.createSourceFile(name, source, language) : original(name, language, onError));
  host.fileExists = ((exists) => (name: string) => name === file || exists(name))(host.fileExists.bind(host));
  const program = ts.createProgram([file], { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, skipLibCheck: true, types: [] }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1;
    const index = line - builtin.length;
    const name = builtin[index]?.name ?? `line ${line}`;
    return `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}
