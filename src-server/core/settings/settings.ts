import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../storage/durable-fs.js';
import {
  SETTING_DEFINITIONS,
  coerceSettingValue,
  findSettingDefinition,
  type SettingDefinition,
  type SettingValue,
} from './setting-definitions.js';
import type { SettingSource } from '../contracts/tenant-settings-schemas.js';
import { ErrorCode } from '../contracts/error-codes.js';
import { GatehouseError } from '../errors/gatehouse-error.js';

export type { SettingSource };

export interface ResolvedSetting {
  key: string;
  value: SettingValue;
  source: SettingSource;
}

/** A consistent view of every setting, taken when the Control Panel (re)starts. */
export class SettingsSnapshot {
  readonly #values: Map<string, ResolvedSetting>;

  constructor(values: Map<string, ResolvedSetting>) {
    this.#values = values;
  }

  get(key: string): SettingValue {
    const definition = findSettingDefinition(key);
    if (!definition) throw new Error(`Unknown setting ${key}`);
    return this.#values.get(definition.key)?.value ?? definition.defaultValue;
  }

  bool(key: string): boolean {
    return this.get(key) === true;
  }

  int(key: string): number {
    return Number(this.get(key));
  }

  str(key: string): string {
    return String(this.get(key));
  }

  describe(key: string): ResolvedSetting {
    const definition = findSettingDefinition(key);
    if (!definition) throw new Error(`Unknown setting ${key}`);
    return (
      this.#values.get(definition.key) ?? {
        key: definition.key,
        value: definition.defaultValue,
        source: 'default',
      }
    );
  }

  all(): ResolvedSetting[] {
    return SETTING_DEFINITIONS.map((definition) => this.describe(definition.key));
  }
}

export class SettingsError extends GatehouseError {
  override name = 'SettingsError';
  constructor(message: string, options?: ErrorOptions) {
    super(ErrorCode.GH_ERR_INVALID_SETTINGS, message, options);
  }
}

export const APPSETTINGS_FILE = 'appsettings.json';

/**
 * Layered settings: defaults < `appsettings.json` in the data dir < environment variables (`Flags__X=true`) <
 * command-line overrides. Unknown keys in any layer are ignored (and reported by `unknownKeys`).
 */
export class SettingsSource {
  readonly #file: string;
  readonly #env: NodeJS.ProcessEnv;
  readonly #commandLine: Map<string, SettingValue>;

  constructor(options: {
    dataDir: string;
    env?: NodeJS.ProcessEnv;
    commandLine?: Record<string, SettingValue | undefined>;
  }) {
    this.#file = join(options.dataDir, APPSETTINGS_FILE);
    this.#env = options.env ?? process.env;
    this.#commandLine = new Map();
    for (const [key, raw] of Object.entries(options.commandLine ?? {})) {
      if (raw === undefined) continue;
      const definition = requireDefinition(key);
      this.#commandLine.set(definition.key, coerceOrThrow(definition, raw, 'command line'));
    }
  }

  get filePath(): string {
    return this.#file;
  }

  async resolve(): Promise<SettingsSnapshot> {
    const fileValues = flatten(await this.#readFile());
    const env = environmentByName(this.#env);
    const values = new Map<string, ResolvedSetting>();
    for (const definition of SETTING_DEFINITIONS) {
      let resolved: ResolvedSetting = {
        key: definition.key,
        value: definition.defaultValue,
        source: 'default',
      };
      const fromFile = lookup(fileValues, definition.key);
      if (fromFile !== undefined) {
        resolved = {
          key: definition.key,
          value: coerceOrThrow(definition, fromFile, this.#file),
          source: 'appsettings',
        };
      }
      const fromEnv = envValue(env, definition);
      if (fromEnv !== undefined) {
        resolved = {
          key: definition.key,
          value: coerceOrThrow(definition, fromEnv, 'environment'),
          source: 'environment',
        };
      }
      const fromCommandLine = this.#commandLine.get(definition.key);
      if (fromCommandLine !== undefined) {
        resolved = { key: definition.key, value: fromCommandLine, source: 'commandLine' };
      }
      values.set(definition.key, resolved);
    }
    return new SettingsSnapshot(values);
  }

  /** Writes one key to `appsettings.json` (atomically), keeping everything else in the file. */
  async writeAppSetting(key: string, raw: unknown): Promise<SettingValue> {
    const definition = requireDefinition(key);
    const value = coerceOrThrow(definition, raw, 'value');
    const document = await this.#readFile();
    const sections = definition.key.split(':');
    let node: Record<string, unknown> = document;
    for (const section of sections.slice(0, -1)) {
      const existingKey = Object.keys(node).find((k) => k.toLowerCase() === section.toLowerCase()) ?? section;
      const child = node[existingKey];
      if (!child || typeof child !== 'object' || Array.isArray(child)) node[existingKey] = {};
      node = node[existingKey] as Record<string, unknown>;
    }
    const leaf = sections.at(-1)!;
    const existingLeaf = Object.keys(node).find((k) => k.toLowerCase() === leaf.toLowerCase());
    if (existingLeaf && existingLeaf !== leaf) delete node[existingLeaf];
    node[leaf] = value;
    await writeFileAtomic(this.#file, `${JSON.stringify(document, null, 2)}\n`);
    return value;
  }

  /** Where a key's value would come from if it were resolved now, ignoring appsettings.json. */
  overridingSource(key: string): SettingSource | undefined {
    const definition = requireDefinition(key);
    if (this.#commandLine.has(definition.key)) return 'commandLine';
    if (envValue(environmentByName(this.#env), definition) !== undefined) return 'environment';
    return undefined;
  }

  async #readFile(): Promise<Record<string, unknown>> {
    let text: string;
    try {
      text = await readFile(this.#file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new SettingsError(`${this.#file} is not valid JSON: ${(error as Error).message}`);
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw new SettingsError(`${this.#file} must contain a JSON object.`);
    }
    return parsed as Record<string, unknown>;
  }
}

function requireDefinition(key: string): SettingDefinition {
  const definition = findSettingDefinition(key);
  if (!definition) {
    throw new SettingsError(
      `Unknown setting '${key}'. Known settings: ${SETTING_DEFINITIONS.map((d) => d.key).join(', ')}.`,
    );
  }
  return definition;
}

function coerceOrThrow(definition: SettingDefinition, raw: unknown, where: string): SettingValue {
  const result = coerceSettingValue(definition, raw);
  if (!result.ok) throw new SettingsError(`${result.message} (from ${where})`);
  return result.value;
}

function flatten(
  document: Record<string, unknown>,
  prefix = '',
  into = new Map<string, unknown>(),
): Map<string, unknown> {
  for (const [name, value] of Object.entries(document)) {
    const key = prefix ? `${prefix}:${name}` : name;
    if (value && typeof value === 'object' && !Array.isArray(value))
      flatten(value as Record<string, unknown>, key, into);
    else into.set(key.toLowerCase(), value);
  }
  return into;
}

function lookup(values: Map<string, unknown>, key: string): unknown {
  return values.get(key.toLowerCase());
}

/**
 * The environment's variables by their lower-cased names, read once: enumerating process.env asks the OS for
 * every variable, and doing it for each setting cost 5–30 ms of a cold start (more under `npm run`, whose
 * environment holds a hundred more).
 */
function environmentByName(env: NodeJS.ProcessEnv): Map<string, string> {
  const byName = new Map<string, string>();
  for (const [name, value] of Object.entries(env)) {
    const key = name.toLowerCase();
    // The first of two names that differ in case only, as the scan of the environment this replaces found.
    if (value !== undefined && !byName.has(key)) byName.set(key, value);
  }
  return byName;
}

/** `Section:Key` is read from the variable `Section__Key`, in any case. */
function envValue(env: Map<string, string>, definition: SettingDefinition): string | undefined {
  return env.get(definition.key.replace(/:/g, '__').toLowerCase());
}
