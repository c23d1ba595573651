/**
 * Who may call, below every layer that decides it: the roles, the organisation a call acts for, the
 * caller (a person or an organisation's own client) and which organisations their token covers.
 */
export const ROLES = ['super_admin', 'admin', 'submitter', 'custom'] as const;
export type Role = (typeof ROLES)[number];

export interface Organisation {
  id: string;
  name: string;
  homeCurrency: string;
  timeZone: string;
  /** 1 = January */
  fyStartMonth: number;
  accountingSystem: string;
}

/** Who is calling: a person through an app, or an organisation's own API client. */
export type Principal = { kind: 'user'; userId: string; email: string; role: Role } | { kind: 'client'; clientId: string };

/** Which organisations the caller's token (or CLI session) covers. */
export interface Coverage {
  organisations: { id: string; name: string }[];
  /** true when it covers all of the user's organisations, including ones joined later */
  all: boolean;
}

/** A call must name its organisation when a person's connection covers several (an API client has one). */
export function organisationRequired(principal: Principal, coverage: Coverage): boolean {
  return principal.kind === 'user' && coverage.organisations.length > 1;
}
