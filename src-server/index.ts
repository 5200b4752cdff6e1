export { startGatehouse, type Gatehouse, type GatehouseOptions } from './app/gatehouse.js';
export { defaultDataDir } from './core/data-dir/default-data-dir.js';
export { DataDirLockedError } from './core/data-dir/data-dir-lock.js';
export { AddressInUseError } from './core/net/listener.js';
export { createLogger } from './core/logging/logger.js';
export { packageInfo } from './core/data-dir/package-root.js';
