// Times are epoch milliseconds (bigint in PostgreSQL, integer in SQLite); booleans are 0/1 so one
// set of queries serves both dialects.

export interface UsersTable {
  id: string;
  username: string;
  /** Lower-cased; null until an Epic user links one. */
  email: string | null;
  email_verified_at: number | null;
  password_hash: string | null;
  status: string;
  is_admin: number;
  /** The license token the plugin receives and admins can download. */
  license_token: string;
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  /** SHA-256 of the cookie token; the token itself is never stored. */
  token_hash: string;
  user_id: string;
  persistent: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SageBuildsTable {
  id: string;
  version: string;
  ue54_url: string;
  ue55_url: string;
  ue56_url: string;
  ue57_url: string;
  released_at: number;
  released_by: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  password_reset_tokens: PasswordResetTokensTable;
  sage_builds: SageBuildsTable;
}
