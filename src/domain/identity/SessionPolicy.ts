/**
 * The fixed parts of how sign-ins last. A session's absolute lifetime and idle
 * time-out are settings (`PARLEY_SESSION_MAX_AGE`, default 30 days;
 * `PARLEY_SESSION_IDLE_TIMEOUT`, default 7 days); an access token lives 15
 * minutes (`ACCESS_TOKEN_TTL_SECONDS`), so an active browser refreshes at
 * least that often.
 */

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
