import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import EditIcon from '@mui/icons-material/Edit';
import type { TenantSetting } from '../../api/types.js';
import { SOURCE_LABEL, formatSettingValue } from './setting-value.js';

export interface SettingsTableProps {
  settings: TenantSetting[];
  canModify: boolean;
  onEdit: (setting: TenantSetting) => void;
}

/** Every setting with the value in force (effective) and the one the next start will use (configured). */
export function SettingsTable({ settings, canModify, onEdit }: SettingsTableProps) {
  return (
    <TableContainer component={Paper} variant="outlined" sx={{ position: 'relative' }}>
      <Table size="small" aria-labelledby="all-settings-heading">
        <TableHead>
          <TableRow>
            <TableCell>Setting</TableCell>
            <TableCell>Effective value</TableCell>
            <TableCell>Configured value</TableCell>
            <TableCell>Default</TableCell>
            <TableCell>
              <span className="visually-hidden">Actions</span>
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {settings.map((setting) => (
            <TableRow key={setting.key} data-setting-key={setting.key}>
              <TableCell sx={{ maxWidth: 480 }}>
                <Typography component="div" sx={{ fontFamily: 'monospace', fontSize: '0.875rem' }}>
                  {setting.key}
                </Typography>
                <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                  {setting.description}
                </Typography>
                {setting.tenantEditable ? null : (
                  <Chip size="small" variant="outlined" label="Deployment setting" sx={{ mt: 0.5 }} />
                )}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>
                <code>{formatSettingValue(setting.effectiveValue)}</code>
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>
                <code>{formatSettingValue(setting.configuredValue)}</code>
                <Typography variant="caption" component="div" sx={{ color: 'text.secondary' }}>
                  from {SOURCE_LABEL[setting.configuredSource]}
                </Typography>
                {setting.pendingRestart ? (
                  <Chip size="small" color="warning" label="Pending restart" sx={{ mt: 0.5 }} />
                ) : null}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-word' }}>
                <code>{formatSettingValue(setting.defaultValue)}</code>
              </TableCell>
              <TableCell align="right">
                {setting.tenantEditable ? (
                  <Tooltip title={canModify ? 'Change' : 'Only an Operator can change settings'}>
                    <span>
                      <IconButton
                        aria-label={`Change ${setting.key}`}
                        onClick={() => onEdit(setting)}
                        disabled={!canModify}
                        size="small"
                      >
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </span>
                  </Tooltip>
                ) : null}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
