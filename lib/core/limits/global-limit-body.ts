/**
 * The global per-IP limiter's answer: plain text, as a default limiter body is (the contract
 * tells integrators to check Content-Type before parsing it).
 */
export const GLOBAL_LIMIT_BODY = 'Too many requests, please try again later.';
