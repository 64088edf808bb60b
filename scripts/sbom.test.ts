import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Spec, Validation } from '@cyclonedx/cyclonedx-library';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSbom } from './sbom.mjs';

// npm run sbom (also part of npm run build, served at /sbom.cdx.json): a CycloneDX SBOM of what ships.
const root = path.resolve(import.meta.dirname, '..');
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const dir = mkdtempSync(path.join(tmpdir(), 'sgx-sbom-'));
let text: string;
let bom: {
  bomFormat: string;
  specVersion: string;
  metadata: { component: { name: string; version: string; type: string } };
  components: { name: string; group?: string; version: string; purl: string }[];
};
beforeAll(() => {
  text = readFileSync(writeSbom(path.join(dir, 'sbom.cdx.json')), 'utf8');
  bom = JSON.parse(text);
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fullName = (component: { name: string; group?: string }) =>
  component.group ? `${component.group}/${component.name}` : component.name;
const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string })
    .version;

describe('the SBOM', () => {
  const validator = new Validation.JsonStrictValidator(Spec.Version.v1dot6);
  it('is valid CycloneDX 1.6 (the schema, strictly); a changed copy is not', async () => {
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.specVersion).toBe('1.6');
    expect(await validator.validate(text)).toBeNull();
    const broken = JSON.parse(text);
    broken.components[0].type = 'gadget';
    expect(await validator.validate(JSON.stringify(broken))).not.toBeNull();
  });
  it('describes this application at its version', () => {
    expect(bom.metadata.component).toMatchObject({ type: 'application', name: pkg.name, version: pkg.version });
  });
  it('holds every production dependency at the version installed, as a package URL', () => {
    for (const name of Object.keys(pkg.dependencies)) {
      const component = bom.components.find((item) => fullName(item) === name);
      expect(component, name).toBeDefined();
      expect(component!.version, name).toBe(installedVersion(name));
      expect(component!.purl, name).toContain(`@${installedVersion(name)}`);
    }
  });
  it('holds no development-only package', () => {
    const names = new Set(bom.components.map(fullName));
    for (const name of ['vitest', 'storybook', 'playwright-core', 'kubernetes-models', '@cyclonedx/cyclonedx-npm']) {
      expect(pkg.devDependencies[name], name).toBeDefined();
      expect(names.has(name), name).toBe(false);
    }
  });
  // (cyclonedx-npm reads the whole installed tree: seconds, more on a busy machine)
  it('is the same file when made again from the same lock file', () => {
    expect(readFileSync(writeSbom(path.join(dir, 'again.cdx.json')), 'utf8')).toBe(text);
  }, 60_000);
});
