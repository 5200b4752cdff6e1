export { openMonitoringStore, type OpenMonitoringStoreOptions } from './open-monitoring-store.js';
export { FileMonitoringStore, MonitoringStoreClosedError } from './file-monitoring-store.js';
export { FIELD_LIMITS } from '../normalize-record.js';
export { MAX_SUMMARY_BUCKETS } from './summarize.js';
