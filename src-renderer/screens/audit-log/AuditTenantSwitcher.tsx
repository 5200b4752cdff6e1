import { memo } from 'react';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import type { AuditTenant } from '../../api/types.js';
import { ALL_TENANTS, OWN_TENANT } from './audit-columns.js';

export interface AuditTenantSwitcherProps {
  /** The tenant shown: a name, or `*` for all tenants; Gatehouse's own when absent. */
  tenant: string | undefined;
  tenants: AuditTenant[];
  onChange: (tenant: string) => void;
}

function label(tenant: AuditTenant): string {
  const name = tenant.name === OWN_TENANT ? 'Gatehouse (this instance)' : tenant.name;
  return `${name} — ${tenant.entries.toLocaleString('en')} entries`;
}

/** Which tenant's trail the list shows: Gatehouse's own, an imported or synced tenant's, or all of them. */
export const AuditTenantSwitcher = memo(function AuditTenantSwitcher({
  tenant,
  tenants,
  onChange,
}: AuditTenantSwitcherProps) {
  const value = tenant ?? OWN_TENANT;
  // A tenant named by a shared link but not (yet) listed still shows as chosen.
  const listed = value === ALL_TENANTS || tenants.some((known) => known.name === value);
  return (
    <TextField
      select
      size="small"
      label="Tenant"
      value={value}
      onChange={(event) => onChange(event.target.value)}
      sx={{ minWidth: 260, mb: 2 }}
      slotProps={{ select: { inputProps: { 'data-testid': 'audit-tenant-switcher' } } }}
    >
      <MenuItem value={ALL_TENANTS}>All tenants</MenuItem>
      {tenants.map((known) => (
        <MenuItem key={known.name} value={known.name}>
          {label(known)}
        </MenuItem>
      ))}
      {listed ? null : <MenuItem value={value}>{value}</MenuItem>}
    </TextField>
  );
});
