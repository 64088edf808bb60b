import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Ajv from 'ajv';
import ts from 'typescript';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { auditKeysOf } from '../api/config.ts';
import { upstreamConfig } from '../api/test-support/nginx.ts';
import { planCompose, readCompose, startOrder } from './test/compose-podman.ts';
import { goNumber, manifestsOf, renderChart, TemplateError } from './test/helm-render.ts';

// The deploy kit without containers (those are npm run test:containers): the Helm chart rendered
// (deploy/test/helm-render.ts; no helm binary here) and every object validated against the Kubernetes
// schemas (kubernetes-models: types, required fields, formats) and for unknown fields (its TypeScript
// types, whose excess-property check is what the API server's strict field validation refuses);
// compose.yaml as the container test brings it up; nginx.conf against the tested proxy settings; the
// Containerfile's promises; the image's health check script.

const root = path.resolve(import.meta.dirname, '..');
const chartDir = path.join(root, 'deploy/helm/sgx-reversal');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
type Manifest = Record<string, any>;

const EXISTING = {
  database: { existingSecret: 'reversal-db' },
  dataKey: { existingSecret: 'reversal-data-key' },
  auditKey: { existingSecret: 'reversal-audit-key' },
};
/** A DATA_KEY as `openssl rand -base64 32` prints one. */
const DATA_KEY = Buffer.alloc(32, 9).toString('base64');
/** An AUDIT_KEY likewise, and one more for a rotation (the new key first, the old one after). */
const AUDIT_KEY = Buffer.alloc(32, 7).toString('base64');
const OLD_AUDIT_KEY = Buffer.alloc(48, 5).toString('base64');

/** kubernetes-models' class for each kind the chart makes. */
const MODELS: Record<string, string> = {
  'v1/ServiceAccount': 'kubernetes-models/v1/ServiceAccount',
  'v1/Secret': 'kubernetes-models/v1/Secret',
  'v1/Service': 'kubernetes-models/v1/Service',
  'apps/v1/Deployment': 'kubernetes-models/apps/v1/Deployment',
  'batch/v1/Job': 'kubernetes-models/batch/v1/Job',
  'policy/v1/PodDisruptionBudget': 'kubernetes-models/policy/v1/PodDisruptionBudget',
  'networking.k8s.io/v1/NetworkPolicy': 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy',
  'networking.k8s.io/v1/Ingress': 'kubernetes-models/networking.k8s.io/v1/Ingress',
};
const modelOf = (object: Manifest) => MODELS[`${object.apiVersion}/${object.kind}`];

async function validateWithModels(objects: Manifest[]): Promise<void> {
  for (const object of objects) {
    const module = modelOf(object);
    if (!module) throw new Error(`no schema for ${object.apiVersion} ${object.kind}`);
    const Model = (await import(module))[object.kind] as new (data: Manifest) => { validate(): void };
    new Model(object).validate(); // throws naming the path of the first problem
  }
}

/**
 * The TypeScript compiler's errors for `const m: I<Kind> = <object>` per object: an unknown field (a
 * typo, a field at the wrong level) is an excess property; a wrong type is a type error.
 */
function typeErrors(objects: Manifest[]): string[] {
  const dir = path.join(root, 'node_modules/.cache');
  mkdirSync(dir, { recursive: true });
  const work = mkdtempSync(path.join(dir, 'sgx-manifests-'));
  try {
    const file = path.join(work, 'manifests.ts');
    const lines = objects.map((object, index) => {
      const module = modelOf(object);
      if (!module) throw new Error(`no type for ${object.apiVersion} ${object.kind}`);
      return `export const m${index}: import('${module}').I${object.kind} = ${JSON.stringify(object)};`;
    });
    writeFileSync(file, lines.join('\n'));
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      target: ts.ScriptTarget.ES2022,
      types: [],
    });
    return ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const render = (values: Record<string, unknown> = EXISTING, options: { isUpgrade?: boolean } = {}) =>
  renderChart(chartDir, { values, release: 'reversal', namespace: 'clinical-tools', ...options });
const objectsOf = (values?: Record<string, unknown>) =>
  manifestsOf(render(values)).map((item) => item.object as Manifest);
const find = (objects: Manifest[], kind: string) => objects.filter((object) => object.kind === kind);
const one = (objects: Manifest[], kind: string) => {
  const found = find(objects, kind);
  expect(found, kind).toHaveLength(1);
  return found[0]!;
};
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([key, value]) => labels[key] === value);

describe('the Helm chart', { timeout: 60_000 }, () => {
  const ALL_OPTIONS = {
    database: { url: 'postgres://reversal:pw@db.example.org:5432/reversal' },
    jwt: { secret: 'j'.repeat(40) },
    dataKey: { key: DATA_KEY },
    auditKey: { key: AUDIT_KEY },
    auditAnchors: { existingClaim: 'reversal-audit-anchors' },
    ingress: { enabled: true, host: 'reversal.hospital.example', tlsSecretName: 'reversal-tls' },
    config: { allowedOrigins: ['https://cms.hospital.example'], metricsTokenSecret: { name: 'metrics' } },
    networkPolicy: { postgres: { to: [{ ipBlock: { cidr: '10.20.0.0/24' } }] } },
    extraEnv: [{ name: 'LOG_LEVEL_EXTRA', value: 'x' }],
    imagePullSecrets: [{ name: 'registry' }],
  };

  it('renders with an existing database Secret: every object valid against the Kubernetes schemas', async () => {
    const objects = objectsOf();
    expect(objects.map((object) => object.kind).sort()).toEqual([
      'Deployment',
      'Job',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Service',
      'ServiceAccount',
    ]);
    await validateWithModels(objects);
    expect(typeErrors(objects)).toEqual([]);
  });
  it('renders with every option on, still valid', async () => {
    const objects = objectsOf(ALL_OPTIONS);
    expect(objects.map((object) => object.kind).sort()).toEqual([
      'Deployment',
      'Ingress',
      'Job',
      'NetworkPolicy',
      'PodDisruptionBudget',
      'Secret',
      'Service',
      'ServiceAccount',
    ]);
    await validateWithModels(objects);
    expect(typeErrors(objects)).toEqual([]);
  });
  it('the checks refuse a misplaced field and a wrong type (they can fail)', async () => {
    const typo = structuredClone(one(objectsOf(), 'Deployment'));
    const container = typo.spec.template.spec.containers[0];
    container.livenessprobe = container.livenessProbe; // a typo
    const misplaced = structuredClone(one(objectsOf(), 'Deployment'));
    misplaced.spec.template.spec.readOnlyRootFilesystem = true; // a container field at pod level
    const errors = typeErrors([typo, misplaced]);
    expect(errors).toHaveLength(2);
    expect(errors[0]).toMatch(/'"livenessprobe"' does not exist in type 'IContainer'/);
    expect(errors[1]).toMatch(/'"readOnlyRootFilesystem"' does not exist in type 'IPodSpec'/);
    const wrongType = structuredClone(one(objectsOf(), 'Deployment'));
    wrongType.spec.replicas = '2';
    await expect(validateWithModels([wrongType])).rejects.toThrow(/replicas must be integer/);
  });

  it('runs 2 replicas, probed, limited, non-root on a read-only root file system without privileges', () => {
    const deployment = one(objectsOf(), 'Deployment');
    const pod = deployment.spec.template.spec;
    const [container] = pod.containers;
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.strategy.rollingUpdate).toEqual({ maxSurge: 1, maxUnavailable: 0 });
    expect(container.image).toBe('registry.example.org/sgx-reversal:0.1.0');
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.ports).toEqual([{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
    expect(container.resources).toEqual({ requests: { cpu: '100m', memory: '192Mi' }, limits: { memory: '512Mi' } });
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 10001, runAsGroup: 10001 });
    expect(pod.securityContext.seccompProfile).toEqual({ type: 'RuntimeDefault' });
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      runAsNonRoot: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(pod.automountServiceAccountToken).toBe(false);
    const mounts = Object.fromEntries(container.volumeMounts.map((mount: Manifest) => [mount.mountPath, mount.name]));
    expect(mounts).toEqual({ '/tmp': 'tmp', '/data': 'data', '/run/secrets/sgx-reversal': 'secrets' });
    expect(pod.volumes.find((volume: Manifest) => volume.name === 'tmp').emptyDir.medium).toBe('Memory');
  });
  it('gives the server its settings, the database URL as a file, and time to drain before it is killed', () => {
    const deployment = one(objectsOf(ALL_OPTIONS), 'Deployment');
    const pod = deployment.spec.template.spec;
    const env = Object.fromEntries(
      pod.containers[0].env.map((item: Manifest) => [item.name, item.value ?? item.valueFrom]),
    );
    expect(env).toEqual({
      PORT: '8080',
      DATABASE_URL_FILE: '/run/secrets/sgx-reversal/database-url',
      JWT_SECRET_FILE: '/run/secrets/sgx-reversal/jwt-secret',
      DATA_KEY_FILE: '/run/secrets/sgx-reversal/data-key',
      AUDIT_KEY_FILE: '/run/secrets/sgx-reversal/audit-key',
      AUDIT_ANCHOR_FILE: '/audit-anchors/anchors.log',
      TRUST_PROXY: 'true',
      TRUST_PROXY_HOPS: '1',
      ALLOWED_ORIGINS: 'https://cms.hospital.example',
      LOG_LEVEL: 'info',
      SHUTDOWN_DRAIN_MS: '5000',
      SHUTDOWN_TIMEOUT_MS: '10000',
      METRICS_TOKEN: { secretKeyRef: { name: 'metrics', key: 'metrics-token' } },
      LOG_LEVEL_EXTRA: 'x',
    });
    const secrets = pod.volumes.find((volume: Manifest) => volume.name === 'secrets').projected.sources;
    expect(secrets).toEqual([
      { secret: { name: 'reversal-sgx-reversal', items: [{ key: 'database-url', path: 'database-url' }] } },
      { secret: { name: 'reversal-sgx-reversal', items: [{ key: 'jwt-secret', path: 'jwt-secret' }] } },
      { secret: { name: 'reversal-sgx-reversal', items: [{ key: 'data-key', path: 'data-key' }] } },
      { secret: { name: 'reversal-sgx-reversal', items: [{ key: 'audit-key', path: 'audit-key' }] } },
    ]);
    expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(5000 + 10000);
    const secret = one(objectsOf(ALL_OPTIONS), 'Secret');
    expect(secret.stringData).toEqual({
      'database-url': 'postgres://reversal:pw@db.example.org:5432/reversal',
      'jwt-secret': 'j'.repeat(40),
      'data-key': DATA_KEY,
      'audit-key': AUDIT_KEY,
    });
    // an existing Secret for the data key: mounted from it, and not in the chart's Secret
    const existing = one(objectsOf({ ...ALL_OPTIONS, dataKey: { existingSecret: 'hsm-data-key' } }), 'Deployment');
    expect(
      existing.spec.template.spec.volumes.find((volume: Manifest) => volume.name === 'secrets').projected.sources,
    ).toContainEqual({ secret: { name: 'hsm-data-key', items: [{ key: 'data-key', path: 'data-key' }] } });
    expect(
      one(objectsOf({ ...ALL_OPTIONS, dataKey: { existingSecret: 'x' } }), 'Secret').stringData,
    ).not.toHaveProperty('data-key');
    // the same for the audit key, and its Secret's own key name
    const audit = one(
      objectsOf({ ...ALL_OPTIONS, auditKey: { existingSecret: 'hsm-audit-key', existingSecretKey: 'key' } }),
      'Deployment',
    );
    expect(
      audit.spec.template.spec.volumes.find((volume: Manifest) => volume.name === 'secrets').projected.sources,
    ).toContainEqual({ secret: { name: 'hsm-audit-key', items: [{ key: 'key', path: 'audit-key' }] } });
    const withoutAuditKey = one(objectsOf({ ...ALL_OPTIONS, auditKey: { existingSecret: 'x' } }), 'Secret').stringData;
    expect(withoutAuditKey).not.toHaveProperty('audit-key');
    expect(JSON.stringify(withoutAuditKey)).not.toContain(AUDIT_KEY);
  });
  it('mounts the anchors claim at /audit-anchors, apart from DATA_DIR, only when one is named', () => {
    const pod = one(objectsOf(ALL_OPTIONS), 'Deployment').spec.template.spec;
    expect(pod.volumes.find((volume: Manifest) => volume.name === 'audit-anchors')).toEqual({
      name: 'audit-anchors',
      persistentVolumeClaim: { claimName: 'reversal-audit-anchors' },
    });
    const mounts = Object.fromEntries(pod.containers[0].volumeMounts.map((mount: Manifest) => [mount.name, mount]));
    expect(mounts['audit-anchors']).toEqual({ name: 'audit-anchors', mountPath: '/audit-anchors' });
    const file = pod.containers[0].env.find((item: Manifest) => item.name === 'AUDIT_ANCHOR_FILE').value;
    expect(path.posix.dirname(file)).toBe(mounts['audit-anchors'].mountPath);
    expect(path.posix.dirname(file)).not.toBe(mounts.data.mountPath);
    const moved = one(
      objectsOf({ ...EXISTING, auditAnchors: { existingClaim: 'worm', file: '/audit-anchors/trail.anchors' } }),
      'Deployment',
    ).spec.template.spec;
    expect(moved.containers[0].env).toContainEqual({
      name: 'AUDIT_ANCHOR_FILE',
      value: '/audit-anchors/trail.anchors',
    });
    expect(moved.volumes).toContainEqual({ name: 'audit-anchors', persistentVolumeClaim: { claimName: 'worm' } });
    // No claim (the default): the server log only, no AUDIT_ANCHOR_FILE and no volume.
    const plain = one(objectsOf(), 'Deployment').spec.template.spec;
    expect(plain.containers[0].env.map((item: Manifest) => item.name)).not.toContain('AUDIT_ANCHOR_FILE');
    expect(plain.volumes.map((volume: Manifest) => volume.name)).toEqual(['tmp', 'data', 'secrets']);
    expect(render(ALL_OPTIONS).notes).toContain(
      'to /audit-anchors/anchors.log on the\nclaim reversal-audit-anchors; `npm run audit-verify -- --anchors FILE`',
    );
    expect(render().notes).toContain('go to the server log only: set auditAnchors.existingClaim');
  });
  it('prints large numbers as whole numbers in the environment (not 1e+06)', () => {
    const deployment = one(
      objectsOf({ ...EXISTING, config: { shutdownTimeoutMs: 120000, shutdownDrainMs: 1000000 } }),
      'Deployment',
    );
    const env = deployment.spec.template.spec.containers[0].env;
    expect(env.find((item: Manifest) => item.name === 'SHUTDOWN_DRAIN_MS').value).toBe('1000000');
    expect(goNumber(1000000)).toBe('1e+06'); // what Go prints without the chart's `int`
    expect(goNumber(120000)).toBe('120000');
  });
  it('refuses to render without a database, a data key or an audit key (NODE_ENV=production needs both)', () => {
    expect(() => render({})).toThrow(
      new TemplateError('Set database.existingSecret (a Secret holding the PostgreSQL URL) or database.url'),
    );
    expect(() => render({ database: EXISTING.database, auditKey: EXISTING.auditKey })).toThrow(
      new TemplateError(
        'Set dataKey.existingSecret (a Secret holding DATA_KEY, made with openssl rand -base64 32) or dataKey.key',
      ),
    );
    const auditKeyMissing = new TemplateError(
      'Set auditKey.existingSecret (a Secret holding AUDIT_KEY, made with openssl rand -base64 32) or auditKey.key',
    );
    expect(() => render({ database: EXISTING.database, dataKey: EXISTING.dataKey })).toThrow(auditKeyMissing);
    // The migration Job's template refuses too (each template checks the values).
    expect(() => render({ ...EXISTING, auditKey: { existingSecret: '', key: '' } })).toThrow(auditKeyMissing);
    expect(() => render({ ...EXISTING, auditKey: { existingSecret: '', key: AUDIT_KEY } })).not.toThrow();
  });

  it('routes the Service, the budget and the network policy to the server pods', () => {
    const objects = objectsOf();
    const podLabels = one(objects, 'Deployment').spec.template.metadata.labels;
    const jobLabels = one(objects, 'Job').spec.template.metadata.labels;
    expect(matches(one(objects, 'Deployment').spec.selector.matchLabels, podLabels)).toBe(true);
    expect(matches(one(objects, 'Service').spec.selector, podLabels)).toBe(true);
    expect(matches(one(objects, 'Service').spec.selector, jobLabels)).toBe(false);
    const budget = one(objects, 'PodDisruptionBudget');
    expect(budget.spec.minAvailable).toBe(1);
    expect(matches(budget.spec.selector.matchLabels, podLabels)).toBe(true);
    const policy = one(objects, 'NetworkPolicy');
    expect(matches(policy.spec.podSelector.matchLabels, podLabels)).toBe(true);
    expect(matches(policy.spec.podSelector.matchLabels, jobLabels)).toBe(true);
    expect(policy.spec.policyTypes).toEqual(['Ingress', 'Egress']);
  });
  it('lets only the ingress controller in, and only PostgreSQL and DNS out', () => {
    const policy = one(objectsOf(ALL_OPTIONS), 'NetworkPolicy');
    expect(policy.spec.ingress).toEqual([
      {
        from: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } },
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'ingress-nginx' } },
          },
        ],
        ports: [{ port: 'http', protocol: 'TCP' }],
      },
    ]);
    expect(policy.spec.egress).toEqual([
      { ports: [{ port: 5432, protocol: 'TCP' }], to: [{ ipBlock: { cidr: '10.20.0.0/24' } }] },
      {
        ports: [
          { port: 53, protocol: 'UDP' },
          { port: 53, protocol: 'TCP' },
        ],
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
      },
    ]);
  });
  it('migrates in a pre-upgrade hook Job with `npm run migrate` (dist/server/migrate.js), as the server', () => {
    const objects = objectsOf();
    const job = one(objects, 'Job');
    expect(job.metadata.annotations).toEqual({
      'helm.sh/hook': 'pre-upgrade',
      'helm.sh/hook-weight': '0',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    const pod = job.spec.template.spec;
    expect(pod.restartPolicy).toBe('Never');
    expect(pod.containers[0].command).toEqual(['node', 'dist/server/migrate.js']);
    expect(pod.containers[0].image).toBe(one(objects, 'Deployment').spec.template.spec.containers[0].image);
    expect(pod.containers[0].securityContext).toEqual(
      one(objects, 'Deployment').spec.template.spec.containers[0].securityContext,
    );
    expect(read('scripts/build-server.mjs')).toMatch(/\['server', 'migrate',/);
    expect(JSON.parse(read('package.json')).scripts.migrate).toBe('node scripts/migrate.mjs');
  });
  it('with two roles, migrates as the owner from its own Secret, at install too, naming the server role', async () => {
    const twoRoles = {
      ...EXISTING,
      database: { ...EXISTING.database, owner: { existingSecret: 'reversal-db-owner', serverRole: 'sgx_server' } },
    };
    const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(render(twoRoles).values), JSON.stringify(validate.errors)).toBe(true);
    const objects = objectsOf(twoRoles);
    await validateWithModels(objects);
    expect(typeErrors(objects)).toEqual([]);
    const job = one(objects, 'Job');
    expect(job.metadata.annotations['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const pod = job.spec.template.spec;
    // Made before the chart's ServiceAccount at install: the namespace's default, with no token.
    expect(pod.serviceAccountName).toBeUndefined();
    expect(pod.automountServiceAccountToken).toBe(false);
    expect(pod.containers[0].command).toEqual(['node', 'dist/server/migrate.js']);
    expect(pod.containers[0].args).toEqual(['--server-role', 'sgx_server']);
    expect(pod.containers[0].env).toEqual([
      { name: 'DATABASE_URL_FILE', value: '/run/secrets/sgx-reversal-owner/database-url' },
    ]);
    expect(pod.volumes.map((volume: Manifest) => volume.name)).toEqual(['tmp', 'owner-database']);
    expect(pod.volumes[1].secret).toEqual({
      secretName: 'reversal-db-owner',
      defaultMode: 288,
      items: [{ key: 'owner-database-url', path: 'database-url' }],
    });
    // The servers keep their own URL and never see the owner's.
    expect(JSON.stringify(one(objects, 'Deployment'))).not.toContain('reversal-db-owner');
    expect(() =>
      render({ ...EXISTING, database: { ...EXISTING.database, owner: { existingSecret: 'reversal-db-owner' } } }),
    ).toThrow(/^Set database\.owner\.serverRole/);
    expect(() => render({ ...twoRoles, migration: { enabled: false } })).toThrow(/keep migration\.enabled/);
    // One role (the default): the Job as before.
    expect(one(objectsOf(), 'Job').spec.template.spec.containers[0].args).toBeUndefined();
  });
  it('exposes the Ingress with TLS when asked', () => {
    const ingress = one(objectsOf(ALL_OPTIONS), 'Ingress');
    expect(ingress.spec.tls).toEqual([{ hosts: ['reversal.hospital.example'], secretName: 'reversal-tls' }]);
    expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({
      name: 'reversal-sgx-reversal',
      port: { name: 'http' },
    });
  });
  it('writes NOTES.txt for the release', () => {
    const notes = render().notes;
    expect(notes).toContain('kubectl --namespace clinical-tools rollout status deployment/reversal-sgx-reversal');
    expect(notes).toContain('port-forward service/reversal-sgx-reversal 8080:80');
    expect(notes).toContain('helm rollback` does not undo a migration');
  });

  it('checks values against values.schema.json (as helm does)', () => {
    const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(render(ALL_OPTIONS).values), JSON.stringify(validate.errors)).toBe(true);
    for (const [values, complaint] of [
      [{ replicaCount: '2' }, '/replicaCount must be integer'],
      [{ jwt: { secret: 'short' } }, '/jwt/secret'],
      [{ dataKey: { key: 'not-a-key' } }, '/dataKey/key must match pattern'],
      [{ auditKey: { key: 'not-a-key' } }, '/auditKey/key must match pattern'],
      [{ auditKey: { key: Buffer.alloc(31, 7).toString('base64') } }, '/auditKey/key must match pattern'],
      [{ auditKey: { key: `${AUDIT_KEY},short` } }, '/auditKey/key must match pattern'],
      [
        { auditKey: { existingSecret: 'x', existingSecretKey: '' } },
        '/auditKey/existingSecretKey must NOT have fewer than 1 characters',
      ],
      [{ auditKey: { existingSecret: 'x', secret: AUDIT_KEY } }, '/auditKey must NOT have additional properties'],
      [{ auditAnchors: { existingClaim: 'x', file: '/data/anchors.log' } }, '/auditAnchors/file must match pattern'],
      [{ auditAnchors: { file: '/audit-anchors/../etc/x' } }, '/auditAnchors/file must match pattern'],
      [{ image: { pullPolicy: 'Sometimes' } }, '/image/pullPolicy must be equal to one of the allowed values'],
      [{ config: { shutdownDrainMs: '5s' } }, '/config/shutdownDrainMs must be integer'],
      [{ database: { url: 'mysql://db/reversal' } }, '/database/url must match pattern'],
    ] as const) {
      expect(validate(render({ ...EXISTING, ...values }).values)).toBe(false);
      expect(JSON.stringify(validate.errors)).toContain(complaint.split(' ')[0]);
      expect(validate.errors!.map((error) => `${error.instancePath} ${error.message}`).join('; ')).toContain(complaint);
    }
    // values without the audit key's settings at all (an older release's, say) are refused
    const { auditKey: _auditKey, ...withoutAuditKey } = render(ALL_OPTIONS).values as Record<string, unknown>;
    expect(validate(withoutAuditKey)).toBe(false);
    expect(JSON.stringify(validate.errors)).toContain(`"missingProperty":"auditKey"`);
  });
  it('accepts in auditKey.key exactly what the server accepts in AUDIT_KEY (api/config.ts)', () => {
    const schema = JSON.parse(readFileSync(path.join(chartDir, 'values.schema.json'), 'utf8'));
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);
    const bytes = (count: number, fill = 7) => Buffer.alloc(count, fill).toString('base64');
    const samples = [
      bytes(32), // 44 characters, one '='
      bytes(33), // no padding
      bytes(34), // '=='
      bytes(48),
      bytes(31), // 44 characters too, but 31 bytes
      bytes(16),
      bytes(32).slice(0, -2) + 'x=', // not canonical: the unused bits are not zero
      bytes(34).slice(0, -3) + 'B==', // likewise
      bytes(32).replace(/=$/, ''), // padding left out
      `${AUDIT_KEY},${OLD_AUDIT_KEY}`, // a rotation: the new key first
      `${AUDIT_KEY} ${OLD_AUDIT_KEY}`,
      `${AUDIT_KEY}, ${OLD_AUDIT_KEY}`,
      `${AUDIT_KEY},${bytes(31)}`,
      `${AUDIT_KEY};${OLD_AUDIT_KEY}`,
      'not-a-key',
      '',
    ];
    const verdicts = samples.map((key) => {
      let server: boolean;
      try {
        auditKeysOf({ AUDIT_KEY: key });
        server = true;
      } catch {
        server = false;
      }
      // existingSecret too, so that the chart renders with an empty key: the schema alone judges it
      return { key, server, chart: validate(render({ ...EXISTING, auditKey: { existingSecret: 'x', key } }).values) };
    });
    for (const { key, server, chart } of verdicts) expect(chart, key).toBe(server);
    // and both sides of the question are asked
    expect(verdicts.filter((verdict) => verdict.server).length).toBeGreaterThanOrEqual(8);
    expect(verdicts.filter((verdict) => !verdict.server).length).toBeGreaterThanOrEqual(6);
    const rotation = one(objectsOf({ ...EXISTING, auditKey: { key: `${AUDIT_KEY},${OLD_AUDIT_KEY}` } }), 'Secret');
    expect(rotation.stringData['audit-key']).toBe(`${AUDIT_KEY},${OLD_AUDIT_KEY}`);
  });
});

describe('the test renderer of Go templates', () => {
  it('trims, prints and fails as Go and Helm do', () => {
    const dir = mkdtempSync(path.join(root, 'node_modules/.cache/sgx-chart-'));
    try {
      mkdirSync(path.join(dir, 'templates'));
      writeFileSync(path.join(dir, 'Chart.yaml'), 'name: t\nversion: 1.0.0\nappVersion: "2"\n');
      writeFileSync(path.join(dir, 'values.yaml'), 'n: 1000000\nlist: [a, b]\nmissing: {}\n');
      const template = (text: string) => {
        writeFileSync(path.join(dir, 'templates', 'a.yaml'), text);
        return renderChart(dir).files.get('templates/a.yaml');
      };
      expect(template('a:\n  {{- if true }}\n  b: {{ .Values.n }}\n  {{- end }}\n')).toBe('a:\n  b: 1e+06\n');
      expect(template('{{ .Values.missing.x }}|{{ .Chart.AppVersion | quote }}')).toBe('|"2"');
      expect(template('{{- range $i, $v := .Values.list }}{{ $i }}={{ $v }} {{ end -}}')).toBe('0=a 1=b ');
      expect(() => template('{{ .Values.missing.x.y }}')).toThrow(/nil pointer evaluating interface \{\}\.y/);
      expect(() => template('{{ .Values.n | sha256sum }}')).toThrow(/function "sha256sum" not defined/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/compose.yaml', () => {
  const compose = path.join(root, 'deploy/compose.yaml');
  const plan = planCompose(compose, { SECRETS_DIR: '/srv/secrets' });
  const service = (name: string) => plan.services.find((item) => item.service === name)!;

  it('is what the container test brings up: every key is one the test translates', () => {
    expect(startOrder(plan).map((item) => item.service)).toEqual(['db', 'app1', 'app2', 'proxy']);
    expect(service('backup').profiles).toEqual(['backup']);
    expect(() => planCompose(compose, {}, { project: 'x' })).not.toThrow();
    const unknown = path.join(mkdtempSync(path.join(root, 'node_modules/.cache/sgx-compose-')), 'compose.yaml');
    writeFileSync(
      unknown,
      read('deploy/compose.yaml').replace('  db:\n    image:', '  db:\n    privileged: true\n    image:'),
    );
    expect(() => planCompose(unknown, {})).toThrow('compose.yaml: services.db.privileged is not translated');
    rmSync(path.dirname(unknown), { recursive: true, force: true });
  });
  it('runs PostgreSQL 16 on a named volume, the password from a secret file', () => {
    const db = service('db');
    expect(db.image).toBe('docker.io/library/postgres:16-bookworm');
    expect(db.runArgs.join(' ')).toContain('--volume sgx-reversal_db-data:/var/lib/postgresql/data');
    expect(db.runArgs.join(' ')).toContain('--env POSTGRES_PASSWORD_FILE=/run/secrets/postgres_password');
    expect(db.runArgs.join(' ')).toContain('--volume /srv/secrets/postgres_password:/run/secrets/postgres_password:ro');
    expect(plan.volumes).toEqual(['sgx-reversal_db-data', 'sgx-reversal_audit-anchors']);
    expect(db.runArgs.join(' ')).not.toContain('audit');
  });
  it('runs two identical instances, read-only, without capabilities, their secrets from files', () => {
    const [one, two] = [service('app1'), service('app2')];
    // The same but for the name, network alias, host name and fixed address.
    const own = (args: string[]) =>
      args.filter((_, index) => !['--name', '--network-alias', '--hostname', '--ip'].includes(args[index - 1] ?? ''));
    expect(own(one.runArgs)).toEqual(own(two.runArgs));
    expect(one.runArgs.join(' ')).toContain('--ip 172.30.80.11');
    expect(two.runArgs.join(' ')).toContain('--ip 172.30.80.12');
    expect(plan.networkArgs).toEqual(['--subnet', '172.30.80.0/24']);
    const args = one.runArgs.join(' ');
    for (const expected of [
      '--read-only --read-only-tmpfs=false',
      '--tmpfs /tmp',
      '--cap-drop ALL',
      '--security-opt no-new-privileges:true',
      '--env DATABASE_URL_FILE=/run/secrets/database_url',
      '--env JWT_SECRET_FILE=/run/secrets/jwt_secret',
      '--env DATA_KEY_FILE=/run/secrets/data_key',
      '--env AUDIT_KEY_FILE=/run/secrets/audit_key',
      '--env AUDIT_ANCHOR_FILE=/audit-anchors/anchors.log',
      '--env TRUST_PROXY=true',
      '--volume /srv/secrets/database_url:/run/secrets/database_url:ro',
      '--volume /srv/secrets/jwt_secret:/run/secrets/jwt_secret:ro',
      '--volume /srv/secrets/data_key:/run/secrets/data_key:ro',
      '--volume /srv/secrets/audit_key:/run/secrets/audit_key:ro',
      '--volume sgx-reversal_audit-anchors:/audit-anchors',
      '--stop-timeout 20',
    ]) {
      expect(args).toContain(expected);
    }
    // The grace period covers the drain and the requests under way.
    const env = Object.fromEntries(
      one.runArgs.flatMap((arg, index) => (one.runArgs[index - 1] === '--env' ? [arg.split('=')] : [])),
    );
    expect(20_000).toBeGreaterThan(Number(env.SHUTDOWN_DRAIN_MS) + Number(env.SHUTDOWN_TIMEOUT_MS));
    expect(one.dependsOn).toEqual([{ service: 'db', condition: 'service_healthy' }]);
  });
  it('has a one-off backup service running npm run backup into a mounted folder', () => {
    const backup = service('backup');
    expect(backup.command.join(' ')).toMatch(/npm run backup -- --out \/backups\/reversal-\$\(date/);
    expect(backup.runArgs.join(' ')).toContain(`--volume ${path.join(root, 'deploy/backups')}:/backups`);
    expect(backup.runArgs.join(' ')).toContain('--read-only');
    // A backup holds neither key: the service is given only the database's URL.
    expect(backup.runArgs.filter((arg) => arg.includes('/run/secrets/'))).toEqual([
      'DATABASE_URL_FILE=/run/secrets/database_url',
      '/srv/secrets/database_url:/run/secrets/database_url:ro',
    ]);
    expect(backup.runArgs.join(' ')).not.toMatch(/AUDIT|DATA_KEY|audit-anchors/);
  });
  it("appends the audit trail's anchors to a file on their own volume, one the image lets uid 10001 write", () => {
    const args = service('app1').runArgs;
    const env = Object.fromEntries(args.flatMap((arg, index) => (args[index - 1] === '--env' ? [arg.split('=')] : [])));
    const mounts = args.flatMap((arg, index) => (args[index - 1] === '--volume' ? [arg.split(':')] : []));
    const anchors = mounts.find(([, target]) => target === path.posix.dirname(env.AUDIT_ANCHOR_FILE!));
    expect(anchors, env.AUDIT_ANCHOR_FILE).toEqual(['sgx-reversal_audit-anchors', '/audit-anchors']);
    expect(path.posix.dirname(env.AUDIT_ANCHOR_FILE!)).not.toBe('/data');
    const owned = /chown 10001:10001 ([^\\\n]+)/.exec(read('Containerfile'))?.[1]?.trim().split(/\s+/);
    expect(owned).toEqual(['/data', '/audit-anchors']);
  });
  it('puts nginx in front with the repository configuration, which is the tested one', () => {
    const proxy = service('proxy');
    expect(proxy.runArgs.join(' ')).toContain(
      `--volume ${path.join(root, 'deploy/nginx.conf')}:/etc/nginx/conf.d/default.conf:ro`,
    );
    expect(proxy.ports).toEqual(['8080:80']);
    const conf = read('deploy/nginx.conf');
    const tested = upstreamConfig({ listen: '80', upstreamPorts: [1, 2] });
    const locationOf = (text: string) =>
      /location \/ \{([^}]*)\}/
        .exec(text)![1]!
        .trim()
        .split(/\s*\n\s*/);
    expect(locationOf(conf)).toEqual(locationOf(tested));
    const servers = [...conf.matchAll(/^\s*server (\S+) (.*);$/gm)].map((match) => [match[1], match[2]]);
    expect(servers).toEqual([
      ['app1:8080', 'max_fails=1 fail_timeout=1s'],
      ['app2:8080', 'max_fails=1 fail_timeout=1s'],
    ]);
    expect(conf).toContain('listen 80;');
    expect(conf).toContain('client_max_body_size 3m;');
  });
  it('names the secrets the product reads, and the files are kept out of git and the image', () => {
    const data = readCompose(compose, {});
    expect(Object.keys(data.secrets!)).toEqual([
      'postgres_password',
      'database_url',
      'jwt_secret',
      'data_key',
      'audit_key',
    ]);
    // deploy/secrets/README.md makes every one of them, the audit key as `openssl rand -base64 32` does
    const made = read('deploy/secrets/README.md');
    for (const name of Object.keys(data.secrets!)) expect(made).toMatch(new RegExp(`> ${name}$`, 'm'));
    expect(made).toMatch(/^openssl rand -base64 32 > audit_key$/m);
    expect(read('deploy/.gitignore')).toMatch(/^secrets\/\*$/m);
    expect(read('.dockerignore')).toMatch(/^deploy\/secrets$/m);
  });
});

describe('the Containerfile', () => {
  const file = read('Containerfile');
  it('builds on an official Node 22 slim image by default, in two stages', () => {
    expect(/^ARG NODE_IMAGE=(\S+)$/m.exec(file)?.[1]).toMatch(/^docker\.io\/library\/node:22-[a-z]+-slim$/);
    expect([...file.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((match) => match.slice(1))).toEqual([
      ['${NODE_IMAGE}', 'builder'],
      ['${NODE_IMAGE}', 'runtime'],
    ]);
    expect(file).toMatch(/npm run build && npm prune --omit=dev/);
  });
  it('runs as a numeric non-root user, stops on SIGTERM, checks /healthz, labels version and revision', () => {
    const runtime = file.slice(file.indexOf('AS runtime'));
    expect(/^USER (\S+)$/m.exec(runtime)?.[1]).toBe('10001:10001');
    expect(runtime).toMatch(/^STOPSIGNAL SIGTERM$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*CMD \["node", "deploy\/healthcheck.mjs"\]$/m);
    expect(runtime).toMatch(/^VOLUME \["\/data"\]$/m);
    expect(runtime).toContain('org.opencontainers.image.version="${VERSION}"');
    expect(runtime).toContain('org.opencontainers.image.revision="${REVISION}"');
    for (const copied of runtime.matchAll(/\/app\/(scripts\/[\w-]+\.mjs)/g)) {
      expect(() => read(copied[1]!), copied[1]).not.toThrow();
    }
  });
  it('leaves out what the build does not need', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const entry of ['.git', 'node_modules', 'dist', 'data', 'deploy/secrets']) expect(ignored).toContain(entry);
  });
});

describe('deploy/healthcheck.mjs (the image HEALTHCHECK)', () => {
  let server: Server;
  let status = 200;
  afterAll(() => new Promise((resolve) => server?.close(resolve)));
  const run = (port: number) =>
    new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [path.join(root, 'deploy/healthcheck.mjs')], {
        env: { PATH: process.env.PATH ?? '', PORT: String(port) },
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.once('close', (code) => resolve({ code, stderr }));
    });
  it('passes on 200 from /healthz, fails on another status and when nothing listens', async () => {
    const paths: string[] = [];
    server = createServer((request, response) => {
      paths.push(request.url ?? '');
      response.writeHead(status).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    expect(await run(port)).toEqual({ code: 0, stderr: '' });
    status = 503;
    expect(await run(port)).toEqual({ code: 1, stderr: '/healthz answered 503\n' });
    expect(paths).toEqual(['/healthz', '/healthz']);
    await new Promise((resolve) => server.close(resolve));
    expect((await run(port)).code).toBe(1);
  });
});

// Keep parseYaml in use for readers of this file: the chart's own files are YAML as helm reads them.
it('Chart.yaml names the chart and its app version (the image tag by default)', () => {
  const chart = parseYaml(readFileSync(path.join(chartDir, 'Chart.yaml'), 'utf8'));
  expect(chart).toMatchObject({ apiVersion: 'v2', name: 'sgx-reversal', type: 'application' });
  expect(chart.appVersion).toBe(JSON.parse(read('package.json')).version);
});
