// /cuenta in the OpenAPI document: the balance, its movements, the invoices and their files,
// described from the schemas and texts of account-schemas.ts and account-responses.ts.
import { CATALOG_MESSAGES } from '@/lib/contract/messages';
import { ACCOUNT_MESSAGES, CREDIT_NOTE_NOT_FOUND_MESSAGE, INVOICE_NOT_FOUND_MESSAGE, MOVEMENTS_PAGE_SIZE } from './account-responses';
import { accountSchema, invoicesSchema, MOVEMENT_KINDS, movementsSchema } from './account-schemas';
import { INVOICES_PAGE_SIZE } from './account-invoices';
import { EXAMPLE_ACCOUNT, EXAMPLE_INVOICES, EXAMPLE_MOVEMENTS } from './account-openapi-examples';
import { catalogError, integrationApiErrors, OWN_LIMIT_RETRY_AFTER, pick, ref, withRequestId, type JsonObject, type Paths } from './openapi-parts';

/** The integration's own account (GET /cuenta, /cuenta/movimientos): the same credentials and error shape as /lotes, a limit of their own. */
export function accountPaths(): Paths {
  const common = integrationApiErrors({
    ...catalogError('El límite por minuto de /cuenta y sus lecturas para su integración (el mismo contador; aparte de los de sus consultas).', pick(CATALOG_MESSAGES, 'rateLimited')),
    headers: OWN_LIMIT_RETRY_AFTER,
  });
  const limitNote = 'Límite propio: ACCOUNT_API_PER_MINUTE (60 por omisión) por minuto por integración, compartido por /cuenta y /cuenta/movimientos. No gasta el límite de sus consultas ni el global por IP: puede revisar su saldo antes de cada lote sin quitarle nada a sus consultas.';
  const day = (name: 'desde' | 'hasta', description: string) => ({ name, in: 'query', required: false, description, schema: { type: 'string', format: 'date' } });
  return {
    '/cuenta': {
      get: {
        operationId: 'getAccount',
        tags: ['cuenta'],
        summary: 'Su saldo, umbral de saldo bajo, tarifa, consultas habilitadas, límites por minuto y lo gastado este mes y el anterior',
        description: [
          'Lo mismo que muestra Inicio en el portal de integradores, para su sistema: por ejemplo, avisar a su equipo cuando saldo_bajo o sin_saldo sea true, o cuando consultas_que_paga no alcance para el lote de mañana.',
          'gasto es lo que descontaron las consultas cobradas en el mes (calendario de Guatemala): el mes en curso hasta ahora y el anterior completo. Lo reservado por consultas que todavía no responden no cuenta hasta que se cobra.',
          limitNote,
        ].join('\n\n'),
        responses: withRequestId({ '200': { description: 'Su cuenta ahora.', content: { 'application/json': { schema: ref(accountSchema), example: EXAMPLE_ACCOUNT } } }, ...common }),
      },
    },
    '/cuenta/movimientos': {
      get: {
        operationId: 'listAccountMovements',
        tags: ['cuenta'],
        summary: 'Los movimientos del saldo: recargas, ajustes y consultas cobradas, con el saldo que dejó cada uno',
        description: [
          `Como Movimientos en el portal: el más reciente primero, una fila por recarga, por ajuste y por consulta cobrada, hasta ${MOVEMENTS_PAGE_SIZE} por página. Pida la siguiente con ?cursor= y el campo siguiente (null en la última), con los mismos filtros.`,
          'desde y hasta son días del calendario de Guatemala (UTC-6), ambos incluidos. Lo reservado por consultas en curso está en retenido: no es un movimiento hasta que se cobra o se libera.',
          limitNote,
        ].join('\n\n'),
        parameters: [
          day('desde', 'Opcional. AAAA-MM-DD: movimientos desde el inicio de ese día en Guatemala.'),
          day('hasta', 'Opcional. AAAA-MM-DD: movimientos hasta el fin de ese día en Guatemala (incluido).'),
          { name: 'tipo', in: 'query', required: false, description: 'Opcional. Solo un tipo de movimiento.', schema: { type: 'string', enum: [...MOVEMENT_KINDS] } },
          { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior.', schema: { type: 'string' } },
        ],
        responses: withRequestId({
          '200': { description: 'Una página de movimientos.', content: { 'application/json': { schema: ref(movementsSchema), example: EXAMPLE_MOVEMENTS } } },
          '400': catalogError('Una fecha, el tipo o el cursor no son válidos, o hasta es anterior a desde.', { ...ACCOUNT_MESSAGES }),
          ...common,
        }),
      },
    },
    '/cuenta/facturas': {
      get: {
        operationId: 'listAccountInvoices',
        tags: ['cuenta'],
        summary: 'Las facturas electrónicas (FEL) de sus recargas, con sus anulaciones y notas de crédito',
        description: [
          `Como Facturas en el portal: la más reciente primero, una por recarga acreditada, hasta ${INVOICES_PAGE_SIZE} por página. movimiento_id es el id de la recarga en /cuenta/movimientos: con las dos listas su sistema concilia un mes sin abrir el portal (el total de las recargas del mes es el de sus facturas, y lo anulado o devuelto con nota de crédito está en documentos).`,
          'estado pendiente_nit: la recarga se acreditó, pero SAT no admite facturar a consumidor final desde Q 2,500.00 y su integración no tiene NIT ni CUI; la factura se emite sola al registrarlo en el portal (Facturas, «Datos de facturación»). xml y pdf son rutas bajo {base_url} con las mismas cabeceras de autenticación; null mientras no esté certificada.',
          'desde y hasta filtran por la fecha de la recarga, en días del calendario de Guatemala, ambos incluidos.',
          limitNote,
        ].join('\n\n'),
        parameters: [
          day('desde', 'Opcional. AAAA-MM-DD: facturas de recargas desde el inicio de ese día en Guatemala.'),
          day('hasta', 'Opcional. AAAA-MM-DD: hasta el fin de ese día en Guatemala (incluido).'),
          { name: 'cursor', in: 'query', required: false, description: 'El campo siguiente de la página anterior.', schema: { type: 'string' } },
        ],
        responses: withRequestId({
          '200': { description: 'Una página de facturas.', content: { 'application/json': { schema: ref(invoicesSchema), example: EXAMPLE_INVOICES } } },
          '400': catalogError('Una fecha o el cursor no son válidos, o hasta es anterior a desde.', pick(ACCOUNT_MESSAGES, 'desde', 'hasta', 'range', 'cursor')),
          ...common,
        }),
      },
    },
    ...invoiceDownloads(common, limitNote),
  };
}

/** The certified documents of /cuenta/facturas, as files (the same 404 for unknown, another integration's and not certified). */
function invoiceDownloads(common: Record<string, JsonObject>, limitNote: string): Paths {
  const idParameter = (name: string, description: string) => ({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  const file = (contentType: string) => ({ [contentType]: { schema: { type: 'string', format: 'binary' } } });
  const download = (operationId: string, summary: string, contentType: string, parameters: JsonObject[], notFound: string) => ({
    get: {
      operationId,
      tags: ['cuenta'],
      summary,
      description: ['Un archivo para descargar (Content-Disposition: attachment), con las mismas cabeceras de autenticación que /cuenta.', limitNote].join('\n\n'),
      parameters,
      responses: withRequestId({
        '200': { description: 'El archivo.', content: file(contentType) },
        '404': catalogError('No existe, no es de su integración o todavía no está certificada.', { notFound }),
        ...common,
      }),
    },
  });
  const invoiceId = idParameter('id', 'El id de la factura (GET /cuenta/facturas).');
  return {
    '/cuenta/facturas/{id}/xml': download('getAccountInvoiceXml', 'El XML certificado de una factura, como lo devolvió el certificador', 'application/xml', [invoiceId], INVOICE_NOT_FOUND_MESSAGE),
    '/cuenta/facturas/{id}/pdf': download('getAccountInvoicePdf', 'El PDF de una factura certificada', 'application/pdf', [invoiceId], INVOICE_NOT_FOUND_MESSAGE),
    '/cuenta/facturas/{id}/notas-de-credito/{nota}/xml': download(
      'getAccountCreditNoteXml',
      'El XML certificado de una nota de crédito de una factura',
      'application/xml',
      [invoiceId, idParameter('nota', 'El id del documento (documentos[].id).')],
      CREDIT_NOTE_NOT_FOUND_MESSAGE,
    ),
    '/cuenta/facturas/{id}/notas-de-credito/{nota}/pdf': download(
      'getAccountCreditNotePdf',
      'El PDF de una nota de crédito certificada de una factura',
      'application/pdf',
      [invoiceId, idParameter('nota', 'El id del documento (documentos[].id).')],
      CREDIT_NOTE_NOT_FOUND_MESSAGE,
    ),
  };
}
