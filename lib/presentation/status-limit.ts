/**
 * GET /api/estado past its own per-IP limit (RATE_LIMIT_STATUS_API_PER_MINUTE): JSON with
 * `message`, as its 503, and in Spanish, as the public pages' refusal.
 */
export const STATUS_API_LIMIT_MESSAGE = 'Demasiadas consultas del estado desde su dirección. Espere un minuto y vuelva a intentarlo.';
