/**
 * The device cookie (OWASP, "Slow Down Online Guessing Attacks with Device
 * Cookies"): after a successful sign-in the browser gets a cookie signed by
 * Parley and bound to the account. A login that presents a valid one for its
 * account is limited by that cookie's own failures, not by the account-wide
 * lock an attacker can trip from many addresses, so the rightful user's
 * browser keeps signing in while a flood is refused.
 */

/** The cookie's name: `__Host-` so only this origin over HTTPS, with Path=/, can set it. */
export const DEVICE_COOKIE = "__Host-parley_device"

/** How long a device stays trusted after its last successful sign-in: a year (each sign-in issues a new cookie). */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60
