const TICKET_IN_FRAGMENT = /(?:^#|[#&])signin=([A-Za-z0-9_-]{10,200})/;

/** The ticket of a one-time sign-in link (`…/#signin=<ticket>`), from a fragment or a whole pasted link. */
export function ticketOf(text: string): string | undefined {
  const hashIndex = text.indexOf('#');
  if (hashIndex === -1) return undefined;
  return TICKET_IN_FRAGMENT.exec(text.slice(hashIndex))?.[1];
}

/**
 * Takes the ticket out of the address bar, so it is neither reused by a reload nor left in the history; the
 * rest of the URL stays.
 */
export function takeTicketFromLocation(): string | undefined {
  const ticket = ticketOf(window.location.hash);
  if (ticket) {
    const { pathname, search } = window.location;
    window.history.replaceState(window.history.state, '', `${pathname}${search}`);
  }
  return ticket;
}
