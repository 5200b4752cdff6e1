import type { AnyRoute } from '../http/route.js';
import type { ManagementContext } from './management-context.js';

/**
 * Environments, agent groups, environment variables, API definitions, Passthrough configurations, policies
 * and API keys.
 */
export function passthroughManagementRoutes(_context: ManagementContext): AnyRoute[] {
  return [];
}
