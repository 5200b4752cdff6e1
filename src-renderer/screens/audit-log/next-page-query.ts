import type { AuditLogPage, AuditLogQuery } from '../../api/types.js';
import { AUDIT_VIEW, toAuditQuery, type AuditView } from './audit-view.js';

/** A page the screen has shown, with the view it was asked for. */
export interface ShownPage {
  view: AuditView;
  data: AuditLogPage;
}

/**
 * The request for a view. Moving on to the next page of what is shown follows the shown page's continuation token,
 * so entries recorded meanwhile neither push a shown entry onto the next page nor make one skip past it; any other
 * move (a page picked by number, another filter or size) asks by page number.
 */
export function pageQuery(view: AuditView, shown: ShownPage | undefined): AuditLogQuery {
  const token = shown?.data.continuationToken;
  if (
    token !== undefined &&
    view.page === shown!.view.page + 1 &&
    view.pageSize === shown!.view.pageSize &&
    AUDIT_VIEW.sameFilter(view.filter, shown!.view.filter)
  )
    return { ...view.filter, PageSize: view.pageSize, continuationToken: token };
  return toAuditQuery(view);
}
