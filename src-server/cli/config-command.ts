import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import {
  SETTING_DEFINITIONS,
  displaySettingValue,
  findSettingDefinition,
} from '../core/settings/setting-definitions.js';
import { SettingsSource, SettingsError } from '../core/settings/settings.js';
import { dataDirOption, withOfflineTenant } from './offline-tenant.js';
import { CommandError, UsageError } from './usage-error.js';

export const CONFIG_HELP = `gatehouse config get KEY [--data-dir DIR]
gatehouse config set KEY VALUE [--data-dir DIR]
gatehouse config list [--data-dir DIR]

Reads or writes settings in the data dir's appsettings.json (for operators). "set" needs the server for that
data dir stopped; it is audited, and takes effect when the server (Control Panel) starts. While the server
runs, use the tenant settings panel or PUT /api/v1/tenant/settings/{key}, then restart the Control Panel.`;

export async function configCommand(argv: string[], out: NodeJS.WritableStream): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { 'data-dir': { type: 'string' } },
    allowPositionals: true,
    strict: true,
  });
  const [action, key, value] = positionals;
  const dataDir = dataDirOption(values['data-dir']);
  const source = new SettingsSource({ dataDir });
  try {
    switch (action) {
      case 'list': {
        const snapshot = await source.resolve();
        // `get KEY` prints a secret setting in clear; a listing (easily pasted into a ticket) does not.
        for (const setting of snapshot.all()) {
          const shown = displaySettingValue(findSettingDefinition(setting.key)!, setting.value);
          out.write(`${setting.key}=${String(shown)}  (${setting.source})\n`);
        }
        return;
      }
      case 'get': {
        if (!key || positionals.length !== 2) throw new UsageError(CONFIG_HELP);
        const definition = findSettingDefinition(key);
        if (!definition)
          throw new UsageError(
            `Unknown setting '${key}'. Known: ${SETTING_DEFINITIONS.map((d) => d.key).join(', ')}.`,
          );
        const current = (await source.resolve()).get(definition.key);
        out.write(`${String(displaySettingValue(definition, current))}\n`);
        return;
      }
      case 'set': {
        if (!key || value === undefined || positionals.length !== 3) throw new UsageError(CONFIG_HELP);
        const definition = findSettingDefinition(key);
        if (!definition)
          throw new UsageError(
            `Unknown setting '${key}'. Known: ${SETTING_DEFINITIONS.map((d) => d.key).join(', ')}.`,
          );
        await withOfflineTenant(dataDir, 'config set', async (tenant) => {
          const written = await source.writeAppSetting(definition.key, value);
          await tenant.recorder.recordOfflineAction(
            'TenantSettings.Modify',
            `cli:${userInfo().username}`,
            {
              key: definition.key,
              value: displaySettingValue(definition, written),
            },
            [{ type: 'TenantSetting', id: definition.key, name: definition.key }],
          );
          out.write(`${definition.key}=${String(displaySettingValue(definition, written))}\n`);
          const overriding = source.overridingSource(definition.key);
          if (overriding)
            out.write(
              `Note: the ${overriding === 'environment' ? 'environment variable' : 'command line'} still overrides it.\n`,
            );
        });
        return;
      }
      default:
        throw new UsageError(CONFIG_HELP);
    }
  } catch (error) {
    if (error instanceof SettingsError) throw new CommandError(error.message, error);
    throw error;
  }
}
