import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// The container test's stand-in for `docker compose up`: deploy/compose.yaml turned into the podman
// commands compose would run (podman-compose cannot be relied on here, and podman cannot pull
// images). Every key compose.yaml uses is translated; any other key throws, so the file cannot gain
// a setting the test would silently ignore (deploy/deploy.test.ts checks this on every run).

export interface ServicePlan {
  service: string;
  container: string;
  image: string;
  /** `podman run` arguments before the image: name, network, environment, mounts, limits. */
  runArgs: string[];
  /** The command after the image (empty: the image's). */
  command: string[];
  dependsOn: { service: string; condition: 'service_started' | 'service_healthy' }[];
  profiles: string[];
  /** `podman run` arguments of the service's own health check, if compose.yaml gives one. */
  healthArgs: string[];
  /** Published ports as given after interpolation: `[host address:]host port:container port`. */
  ports: string[];
}

export interface ComposePlan {
  project: string;
  network: string;
  /** `podman network create` arguments beyond the name (the default network's subnet). */
  networkArgs: string[];
  volumes: string[];
  services: ServicePlan[];
}

const SERVICE_KEYS = new Set([
  'image',
  'environment',
  'secrets',
  'volumes',
  'ports',
  'read_only',
  'tmpfs',
  'cap_drop',
  'security_opt',
  'healthcheck',
  'depends_on',
  'stop_grace_period',
  'restart',
  'profiles',
  'command',
  'networks',
]);
const TOP_KEYS = new Set(['name', 'services', 'secrets', 'volumes', 'networks']);
const HEALTH_KEYS = new Set(['test', 'interval', 'timeout', 'retries', 'start_period']);

/** Compose's interpolation: ${NAME}, ${NAME:-default} (also when NAME is empty), and $$ for a $. */
export function interpolate(text: string, env: Readonly<Record<string, string | undefined>>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g,
    (match, name?: string, fallback?: string) => {
      if (match === '$$') return '$';
      const value = env[name!];
      return value === undefined || (value === '' && fallback !== undefined) ? (fallback ?? '') : value;
    },
  );
}

function interpolateAll(value: unknown, env: Readonly<Record<string, string | undefined>>): unknown {
  if (typeof value === 'string') return interpolate(value, env);
  if (Array.isArray(value)) return value.map((item) => interpolateAll(item, env));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, interpolateAll(item, env)]));
  }
  return value;
}

/** compose.yaml as compose reads it: YAML merge keys resolved, `x-` fields dropped, variables filled in. */
export function readCompose(file: string, env: Readonly<Record<string, string | undefined>>) {
  const raw = parse(readFileSync(file, 'utf8'), { merge: true }) as Record<string, unknown>;
  const data = Object.fromEntries(Object.entries(raw).filter(([key]) => !key.startsWith('x-')));
  for (const key of Object.keys(data))
    if (!TOP_KEYS.has(key)) throw new Error(`compose.yaml: "${key}" is not translated`);
  return interpolateAll(data, env) as {
    name: string;
    services: Record<string, Record<string, unknown>>;
    secrets?: Record<string, { file: string }>;
    volumes?: Record<string, unknown>;
    networks?: Record<string, { ipam?: { config?: { subnet?: string }[] } }>;
  };
}

const seconds = (duration: string) => {
  const match = /^(\d+)(s|m)$/.exec(duration);
  if (!match) throw new Error(`compose.yaml: duration "${duration}" is not translated (use 5s or 2m)`);
  return Number(match[1]) * (match[2] === 'm' ? 60 : 1);
};

/**
 * The podman commands for compose.yaml: one network (`<project>_default`, each service reachable by
 * its name), named volumes `<project>_<name>`, containers `<project>-<service>-1`, secrets bind-mounted
 * read-only at /run/secrets/<name> (what compose does outside swarm), relative paths from the file's
 * folder. `project` replaces the file's name, as `docker compose -p` does.
 */
export function planCompose(
  file: string,
  env: Readonly<Record<string, string | undefined>>,
  options: { project?: string } = {},
): ComposePlan {
  const compose = readCompose(file, env);
  const dir = path.dirname(path.resolve(file));
  const project = options.project ?? compose.name; // `docker compose -p NAME`
  const network = `${project}_default`;
  const hostPath = (value: string) => (value.startsWith('.') ? path.resolve(dir, value) : value);
  const volumes = Object.keys(compose.volumes ?? {}).map((name) => `${project}_${name}`);
  const networkArgs: string[] = [];
  for (const [name, spec] of Object.entries(compose.networks ?? {})) {
    if (name !== 'default' || Object.keys(spec).some((key) => key !== 'ipam')) {
      throw new Error(`compose.yaml: networks.${name}: only the default network's ipam is translated`);
    }
    for (const config of spec.ipam?.config ?? []) if (config.subnet) networkArgs.push('--subnet', config.subnet);
  }
  const services = Object.entries(compose.services).map(([service, spec]): ServicePlan => {
    const where = `compose.yaml: services.${service}`;
    for (const key of Object.keys(spec))
      if (!SERVICE_KEYS.has(key)) throw new Error(`${where}.${key} is not translated`);
    const container = `${project}-${service}-1`;
    const runArgs = ['--name', container, '--network', network, '--network-alias', service, '--hostname', service];
    for (const [name, value] of Object.entries((spec.environment ?? {}) as Record<string, string>)) {
      runArgs.push('--env', `${name}=${value}`);
    }
    for (const name of (spec.secrets ?? []) as string[]) {
      const secret = compose.secrets?.[name];
      if (!secret?.file) throw new Error(`${where}.secrets: "${name}" has no file in the top-level secrets`);
      runArgs.push('--volume', `${hostPath(secret.file)}:/run/secrets/${name}:ro`);
    }
    for (const volume of (spec.volumes ?? []) as string[]) {
      const [source, target, mode] = volume.split(':') as [string, string, string | undefined];
      const named = !source.startsWith('.') && !source.startsWith('/');
      if (named && !(compose.volumes && source in compose.volumes)) {
        throw new Error(`${where}.volumes: "${source}" is not a declared volume`);
      }
      runArgs.push(
        '--volume',
        [named ? `${project}_${source}` : hostPath(source), target, mode].filter(Boolean).join(':'),
      );
    }
    for (const [name, settings] of Object.entries((spec.networks ?? {}) as Record<string, Record<string, string>>)) {
      const keys = Object.keys(settings ?? {});
      if (name !== 'default' || keys.some((key) => key !== 'ipv4_address')) {
        throw new Error(`${where}.networks: only the default network's ipv4_address is translated`);
      }
      if (settings.ipv4_address) runArgs.push('--ip', settings.ipv4_address);
    }
    const ports = (spec.ports ?? []) as string[];
    for (const port of ports) runArgs.push('--publish', port);
    if (spec.read_only === true) runArgs.push('--read-only', '--read-only-tmpfs=false');
    for (const mount of (spec.tmpfs ?? []) as string[]) runArgs.push('--tmpfs', mount);
    for (const capability of (spec.cap_drop ?? []) as string[]) runArgs.push('--cap-drop', capability);
    for (const option of (spec.security_opt ?? []) as string[]) runArgs.push('--security-opt', option);
    if (spec.stop_grace_period) runArgs.push('--stop-timeout', String(seconds(spec.stop_grace_period as string)));
    if (spec.restart) runArgs.push('--restart', spec.restart as string);
    const healthArgs: string[] = [];
    if (spec.healthcheck) {
      const health = spec.healthcheck as Record<string, unknown>;
      for (const key of Object.keys(health)) {
        if (!HEALTH_KEYS.has(key)) throw new Error(`${where}.healthcheck.${key} is not translated`);
      }
      const test = health.test as string[];
      if (test[0] !== 'CMD') throw new Error(`${where}.healthcheck.test: only the ["CMD", …] form is translated`);
      healthArgs.push('--health-cmd', JSON.stringify(test.slice(1)));
      if (health.interval) healthArgs.push('--health-interval', health.interval as string);
      if (health.timeout) healthArgs.push('--health-timeout', health.timeout as string);
      if (health.retries) healthArgs.push('--health-retries', String(health.retries));
      if (health.start_period) healthArgs.push('--health-start-period', health.start_period as string);
    }
    const dependsOn = Object.entries((spec.depends_on ?? {}) as Record<string, { condition?: string }>).map(
      ([name, rule]) => {
        if (!(name in compose.services)) throw new Error(`${where}.depends_on: no service "${name}"`);
        const condition = rule.condition ?? 'service_started';
        if (condition !== 'service_started' && condition !== 'service_healthy') {
          throw new Error(`${where}.depends_on.${name}: condition ${condition} is not translated`);
        }
        return { service: name, condition: condition as 'service_started' | 'service_healthy' };
      },
    );
    return {
      service,
      container,
      image: spec.image as string,
      runArgs,
      command: (spec.command ?? []) as string[],
      dependsOn,
      profiles: (spec.profiles ?? []) as string[],
      healthArgs,
      ports,
    };
  });
  return { project, network, networkArgs, volumes, services };
}

/** The services `up` starts (no profile), each after those it depends on. */
export function startOrder(plan: ComposePlan): ServicePlan[] {
  const byName = new Map(plan.services.map((service) => [service.service, service]));
  const ordered: ServicePlan[] = [];
  const visit = (service: ServicePlan, path: string[]) => {
    if (ordered.includes(service)) return;
    if (path.includes(service.service)) {
      throw new Error(`depends_on cycle: ${[...path, service.service].join(' → ')}`);
    }
    for (const dependency of service.dependsOn) visit(byName.get(dependency.service)!, [...path, service.service]);
    ordered.push(service);
  };
  for (const service of plan.services) if (service.profiles.length === 0) visit(service, []);
  return ordered;
}
