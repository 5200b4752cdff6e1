import type { Migration, MigrationProvider } from 'kysely';
import type { EngineKind } from '../engine-kind.js';
import { initialSchema } from './0001-initial.js';
import { configRecords } from './0002-config-records.js';
import { instancesSchema } from './0003-instances.js';
import { monitoringCapture } from './0004-monitoring-capture.js';
import { auditTenants } from './0005-audit-tenants.js';
import { auditChain } from './0006-audit-chain.js';
import { auditSearch } from './0007-audit-search.js';
import { savedFilters } from './0008-saved-filters.js';
import { auditTenantIndexes } from './0009-audit-tenant-indexes.js';
import { auditSearchBatched } from './0010-audit-search-batched.js';
import { auditHourCounts } from './0011-listshapes-hour-counts.js';
import { auditTerms } from './0012-pgsearch-audit-terms.js';
import { monitoringReadPaths } from './0013-monitoring-read-paths.js';
import { monitoringWriteCost } from './0014-monitoring-write-cost.js';
import { timelineHourSplits } from './0015-timeline-hour-splits.js';
import { monitoringInstanceIndex } from './0016-monitoring-instance-index.js';
import { deflatedConfigRows } from './0017-deflated-config-rows.js';
import { timelineCountIndexes } from './0018-timeline-count-indexes.js';
import { auditImportIndexes } from './0019-audit-import-indexes.js';
import { countIndexesByName } from './0020-count-indexes-by-name.js';
import { termCounts } from './0022-pg-term-counts.js';
import { auditTimeDisorder } from './0023-audit-time-disorder.js';
import { termPrefixCounts } from './0024-pg-term-prefix-counts.js';
import { auditActionIndexUser } from './0025-audit-action-index-user.js';
import { pgActionUserIndex } from './0026-pg-action-user-index.js';
import { auditSearchRemovals } from './0027-audit-search-removals.js';

/**
 * One migration history for both engines, applied by Kysely's Migrator at open. Append only: never edit a
 * released step (a database that ran it would not run it again).
 */
export function migrationsFor(engine: EngineKind): MigrationProvider {
  const migrations: Record<string, Migration> = {
    '0001-initial': initialSchema(engine),
    '0002-config-records': configRecords(engine),
    '0003-instances': instancesSchema(),
    '0004-monitoring-capture': monitoringCapture(),
    '0005-audit-tenants': auditTenants(engine),
    '0006-audit-chain': auditChain(),
    '0007-audit-search': auditSearch(engine),
    '0008-saved-filters': savedFilters(),
    '0009-audit-tenant-indexes': auditTenantIndexes(engine),
    '0010-audit-search-batched': auditSearchBatched(engine),
    '0011-listshapes-hour-counts': auditHourCounts(),
    '0012-pgsearch-audit-terms': auditTerms(engine),
    '0013-monitoring-read-paths': monitoringReadPaths(engine),
    '0014-monitoring-write-cost': monitoringWriteCost(engine),
    '0015-timeline-hour-splits': timelineHourSplits(),
    '0016-monitoring-instance-index': monitoringInstanceIndex(engine),
    '0017-deflated-config-rows': deflatedConfigRows(engine),
    '0018-timeline-count-indexes': timelineCountIndexes(),
    '0019-audit-import-indexes': auditImportIndexes(engine),
    '0020-count-indexes-by-name': countIndexesByName(),
    '0022-pg-term-counts': termCounts(engine),
    '0023-audit-time-disorder': auditTimeDisorder(engine),
    '0024-pg-term-prefix-counts': termPrefixCounts(engine),
    '0025-audit-action-index-user': auditActionIndexUser(engine),
    '0026-pg-action-user-index': pgActionUserIndex(engine),
    '0027-audit-search-removals': auditSearchRemovals(engine),
  };
  return { getMigrations: () => Promise.resolve(migrations) };
}
