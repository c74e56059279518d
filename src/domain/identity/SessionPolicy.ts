/**
 * How long sign-ins last. A session ends 30 days after it began however it is
 * used, and after 7 days without a refresh; an access token lives 15 minutes
 * (`ACCESS_TOKEN_TTL_SECONDS`), so an idle browser refreshes at most that late.
 */

/** The absolute lifetime of a session, in seconds (30 days). */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600

/** How long a session survives without a refresh, in seconds (7 days). */
export const SESSION_IDLE_TIMEOUT_SECONDS = 7 * 24 * 3600

/** How long an MFA enrolment waits for its first code, in seconds (10 minutes). */
export const MFA_ENROLMENT_TTL_SECONDS = 600

/**
 * How recently a session must have proved every factor of its user (at
 * sign-in, or with `POST /v1/auth/reauthenticate`) to end the user's other
 * sessions, in seconds (10 minutes).
 */
export const RECENT_AUTHENTICATION_SECONDS = 600

/**
 * How many live sessions one account may have (ASVS 7.1.2). A sign-in past it
 * ends the least recently used ones, so a script with the password cannot pile
 * up sessions and the rightful user's newest devices keep working.
 */
export const MAX_SESSIONS_PER_USER = 50
