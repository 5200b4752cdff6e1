import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsError, SettingsSource } from '../../../src-server/core/settings/settings.js';
import { tempDir } from '../../helpers/temp-dir.js';

describe('layered settings', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => {
    dir = await tempDir();
  });
  afterEach(() => dir.remove());

  it('resolves defaults < appsettings.json < environment < command line, keys case-insensitive', async () => {
    expect(
      (await new SettingsSource({ dataDir: dir.path, env: {} }).resolve()).describe('ControlPanel:Port'),
    ).toEqual({
      key: 'ControlPanel:Port',
      value: 4700,
      source: 'default',
    });
    await writeFile(
      join(dir.path, 'appsettings.json'),
      JSON.stringify({ controlpanel: { PORT: 4800 }, Flags: { EnableServiceApiAuditLogRoute: 'true' } }),
    );
    const fromFile = await new SettingsSource({ dataDir: dir.path, env: {} }).resolve();
    expect(fromFile.describe('controlPanel:port')).toMatchObject({ value: 4800, source: 'appsettings' });
    expect(fromFile.bool('Flags:EnableServiceApiAuditLogRoute')).toBe(true);

    const fromEnv = await new SettingsSource({
      dataDir: dir.path,
      env: { ControlPanel__Port: '4900' },
    }).resolve();
    expect(fromEnv.describe('ControlPanel:Port')).toMatchObject({ value: 4900, source: 'environment' });

    const lowerCaseEnv = new SettingsSource({ dataDir: dir.path, env: { controlpanel__port: '4901' } });
    expect((await lowerCaseEnv.resolve()).describe('ControlPanel:Port')).toMatchObject({
      value: 4901,
      source: 'environment',
    });
    expect(lowerCaseEnv.overridingSource('ControlPanel:Port')).toBe('environment');
    expect(lowerCaseEnv.overridingSource('ControlPanel:Host')).toBeUndefined();

    const fromCli = await new SettingsSource({
      dataDir: dir.path,
      env: { ControlPanel__Port: '4900' },
      commandLine: { 'ControlPanel:Port': 0 },
    }).resolve();
    expect(fromCli.describe('ControlPanel:Port')).toMatchObject({ value: 0, source: 'commandLine' });
  });

  it('refuses values that do not fit, naming the key and the layer', async () => {
    await expect(
      new SettingsSource({
        dataDir: dir.path,
        env: { Flags__EnableServiceApiAuditLogRoute: 'yes please' },
      }).resolve(),
    ).rejects.toThrow(/Flags:EnableServiceApiAuditLogRoute must be true or false\. \(from environment\)/);
    expect(
      () => new SettingsSource({ dataDir: dir.path, commandLine: { 'ControlPanel:Port': 70000 } }),
    ).toThrow(SettingsError);
    await writeFile(join(dir.path, 'appsettings.json'), '{ nope');
    await expect(new SettingsSource({ dataDir: dir.path, env: {} }).resolve()).rejects.toThrow(
      /not valid JSON/,
    );
  });

  it('takes a setting with choices in any case, and refuses others naming the choices', async () => {
    const closed = await new SettingsSource({
      dataDir: dir.path,
      env: { RateLimiting__FailureMode: ' Closed ' },
    }).resolve();
    expect(closed.str('RateLimiting:FailureMode')).toBe('closed');
    expect(
      () => new SettingsSource({ dataDir: dir.path, commandLine: { 'RateLimiting:FailureMode': 'ajar' } }),
    ).toThrow('RateLimiting:FailureMode must be one of open, closed. (from command line)');
  });

  it('writes one key atomically and keeps the rest of appsettings.json', async () => {
    await writeFile(
      join(dir.path, 'appsettings.json'),
      JSON.stringify({ Custom: { Keep: 1 }, flags: { enableserviceapiauditlogroute: false } }),
    );
    const source = new SettingsSource({ dataDir: dir.path, env: {} });
    await source.writeAppSetting('Flags:EnableServiceApiAuditLogRoute', 'true');
    expect(JSON.parse(await readFile(join(dir.path, 'appsettings.json'), 'utf8'))).toEqual({
      Custom: { Keep: 1 },
      flags: { EnableServiceApiAuditLogRoute: true },
    });
    await expect(source.writeAppSetting('No:Such', 1)).rejects.toThrow(/Unknown setting 'No:Such'/);
  });
});
