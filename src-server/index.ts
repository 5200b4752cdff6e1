export { startGatehouse, type Gatehouse, type GatehouseOptions } from './gatehouse.js';
export { defaultDataDir } from './data-dir/default-data-dir.js';
export { DataDirLockedError } from './data-dir/data-dir-lock.js';
export { createLogger } from './logger.js';
