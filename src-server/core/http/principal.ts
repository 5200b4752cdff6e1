/** The authenticated caller of a management request. */
export interface Principal {
  /** Name recorded as `userName` in the audit trail. */
  userName: string;
  /** `sub` claim. */
  subject: string;
  roles: string[];
  kind: 'user' | 'client';
  issuer: string;
}

export const ANONYMOUS_USER_NAME = 'anonymous';
