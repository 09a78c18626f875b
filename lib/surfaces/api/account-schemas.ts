// The shapes GET /api/cuenta and GET /api/cuenta/movimientos answer with, as zod schemas: the
// handlers build them (account.ts) and the OpenAPI document describes them from these same objects.
// Money goes out twice, as the portal and the statements read it: integer centavos (*_centavos), to
// compute with, and quetzales with two decimals as text, as /lotes gives its amounts.
import { z } from 'zod';

const centavos = (what: string) => z.int().describe(`${what}, en centavos de quetzal.`);
const quetzales = (what: string) => z.string().describe(`${what}, en quetzales con dos decimales ("12.50").`);

/** The per-minute limits an integration spends from, by the name GET /api/cuenta gives them. */
export const ACCOUNT_LIMIT_NAMES = ['renap', 'rtu_nits', 'catalogos', 'lotes', 'cuenta'] as const;

/** A movement's kind as the API names it and takes it in ?tipo=. */
export const MOVEMENT_KINDS = ['recarga', 'ajuste', 'consulta_cobrada', 'constancia'] as const;

const monthSpendingSchema = z.object({
  mes: z.string().describe('AAAA-MM, mes del calendario de Guatemala.'),
  gasto_centavos: centavos('Lo que descontaron las consultas cobradas en el mes'),
  gasto: quetzales('Lo mismo'),
  hasta: z.string().describe('Hasta cuándo se cuenta (ISO 8601, UTC): el fin del mes, o este momento en el mes en curso.'),
});

export const accountSchema = z
  .object({
    integracion: z.string().describe('El nombre de su integración (el valor de x-integracion-login).'),
    activa: z.boolean(),
    moneda: z.literal('GTQ'),
    saldo_centavos: centavos('El saldo prepagado ahora'),
    saldo: quetzales('El saldo prepagado ahora'),
    umbral_saldo_bajo_centavos: centavos('Bajo este saldo se avisa al contacto de facturación (saldo_bajo); 0 solo avisa cuando se agota'),
    umbral_saldo_bajo: quetzales('El mismo umbral'),
    umbral_saldo_bajo_propio: z.boolean().describe('true si el umbral es el de su integración; false si es el del servicio.'),
    saldo_bajo: z.boolean().describe('El saldo está bajo el umbral y todavía paga una consulta de catálogo.'),
    sin_saldo: z.boolean().describe('El saldo ya no paga una consulta de catálogo: los catálogos responden 402 hasta una recarga.'),
    consultas_que_paga: z.int().nullable().describe('Cuántas consultas de catálogo paga el saldo a la tarifa actual; null si la tarifa es 0.'),
    tarifa_centavos: centavos('La tarifa de cada consulta de catálogo cobrada (las tres comparten la misma)'),
    tarifa: quetzales('La misma tarifa'),
    constancias: z
      .object({
        habilitadas: z.boolean().describe('Si sus consultas pueden pedir constancia (x-constancia: true); lo decide la administración del servicio.'),
        tarifa_centavos: centavos('Lo que cuesta cada constancia, cobrado con su consulta como un movimiento propio (constancia); sin saldo que la cubra, la consulta responde sin constancia'),
        tarifa: quetzales('La misma tarifa'),
      })
      .describe('Las constancias de consulta de su integración.'),
    consultas: z
      .array(
        z.object({
          ruta: z.string().describe('La ruta de la consulta, bajo {base_url}.'),
          bandera: z.string().describe('La bandera que la habilita (is_…_enabled).'),
          habilitada: z.boolean(),
          cobrada: z.boolean().describe('true en los catálogos: cada consulta resuelta descuenta la tarifa.'),
          limite: z.enum(ACCOUNT_LIMIT_NAMES).describe('El límite por minuto del que gasta (limites).'),
        }),
      )
      .describe('Las cinco consultas, en el orden del contrato.'),
    limites: z
      .array(
        z.object({
          limite: z.enum(ACCOUNT_LIMIT_NAMES),
          rutas: z.array(z.string()).describe('Las rutas que gastan de este límite.'),
          por_minuto: z.int(),
          usadas_este_minuto: z
            .int()
            .nullable()
            .describe('Lo gastado en la ventana de un minuto abierta ahora (se reinicia a más tardar 60 segundos después de su primera solicitud); null si el contador no respondió.'),
        }),
      )
      .describe('Los límites por minuto de su integración. El de cuenta es propio de estas lecturas: consultar su cuenta no gasta el de sus consultas ni el global por IP.'),
    gasto: z.object({ mes_en_curso: monthSpendingSchema, mes_anterior: monthSpendingSchema }),
  })
  .meta({ id: 'Cuenta', description: 'Su integración ahora: saldo, umbral de saldo bajo, tarifa, consultas habilitadas, límites por minuto y lo gastado este mes y el anterior.' });

export type AccountBody = z.infer<typeof accountSchema>;

export const movementSchema = z
  .object({
    id: z.int().describe('El id del movimiento.'),
    tipo: z.enum(MOVEMENT_KINDS).describe('recarga, ajuste (de la administración, a favor o en contra), consulta_cobrada (una consulta de catálogo resuelta) o constancia (la tarifa de una constancia de consulta, cobrada con su consulta).'),
    descripcion: z.string().describe('El tipo en palabras, como lo muestra el portal.'),
    fecha: z.string().describe('ISO 8601, UTC.'),
    monto_centavos: centavos('Positivo suma al saldo, negativo lo descuenta'),
    monto: quetzales('Lo mismo, con signo'),
    saldo_despues_centavos: centavos('El saldo que dejó'),
    saldo_despues: quetzales('Lo mismo'),
    origen: z.string().describe('Quién lo hizo, como lo dice el portal: «Administración», «Consulta a la API»…'),
    nota: z.string().nullable().describe('La nota de una recarga o un ajuste; null en una consulta cobrada.'),
    factura_id: z
      .int()
      .nullable()
      .describe('En una recarga, el id de su factura (GET /cuenta/facturas); null en una recarga acreditada mientras el servicio no facturaba, en un ajuste y en una consulta cobrada.'),
  })
  .meta({ id: 'Movimiento', description: 'Un movimiento del saldo: una recarga, un ajuste o una consulta cobrada.' });

export const movementsSchema = z
  .object({
    movimientos: z.array(movementSchema).describe('El más reciente primero.'),
    moneda: z.literal('GTQ'),
    retenido: z
      .object({
        consultas: z.int().describe('Consultas de catálogo en curso, con su tarifa reservada.'),
        monto_centavos: centavos('Lo reservado, que aún no es un movimiento'),
        monto: quetzales('Lo mismo'),
      })
      .describe('Lo reservado por consultas que todavía no responden: se cobra o se libera al terminar.'),
    siguiente: z.string().nullable().describe('Pida la página siguiente (más antigua) con ?cursor= y este valor, con los mismos filtros; null en la última.'),
  })
  .meta({ id: 'Movimientos', description: 'Una página de los movimientos del saldo, como los muestra Movimientos en el portal.' });

export type MovementsBody = z.infer<typeof movementsSchema>;

/** An invoice's standing as the API names it (the portal's words are in estado_texto). */
export const INVOICE_API_STATES = [
  'pendiente_nit',
  'en_tramite',
  'por_corregir',
  'certificada',
  'anulacion_en_tramite',
  'anulada',
  'nota_de_credito_en_tramite',
  'con_nota_de_credito',
  'correccion_en_tramite',
  'corregida',
] as const;

const documentSchema = z.object({
  id: z.int().describe('El id del documento (anulación o nota de crédito).'),
  tipo: z.enum(['anulacion', 'nota_de_credito']),
  correccion: z.boolean().describe('true si es parte de una corrección del receptor: no movió el saldo y la factura se reemplaza por otra (reemplazada_por).'),
  estado: z.enum(['en_tramite', 'certificado', 'rechazado', 'por_corregir']).describe('rechazado: el certificador no la aceptó; el monto que se había descontado volvió al saldo (una corrección no descontó nada).'),
  monto_centavos: centavos('Lo que revierte de la factura'),
  monto: quetzales('Lo mismo'),
  motivo: z.string(),
  solicitado: z.string().describe('ISO 8601, UTC.'),
  certificado: z.string().nullable().describe('Cuándo SAT la tuvo por hecha (ISO 8601, UTC); null mientras no.'),
  serie: z.string().nullable().describe('Serie de la nota de crédito certificada; null en una anulación o antes de certificarse.'),
  numero: z.string().nullable(),
  uuid: z.string().nullable().describe('Número de autorización (UUID) de la nota de crédito.'),
  xml: z.string().nullable().describe('Ruta, bajo {base_url}, del XML certificado de la nota de crédito; null si no hay.'),
  pdf: z.string().nullable().describe('Ruta, bajo {base_url}, del PDF de la nota de crédito certificada; null en una anulación o antes de certificarse.'),
});

export const invoiceSchema = z
  .object({
    id: z.int().describe('El id de la factura en este servicio.'),
    movimiento_id: z.int().describe('El id de la recarga que factura, el mismo de /cuenta/movimientos.'),
    tipo_dte: z.enum(['FACT', 'FPEQ']).describe('FACT (régimen general) o FPEQ (pequeño contribuyente), según el emisor.'),
    estado: z
      .enum(INVOICE_API_STATES)
      .describe(
        'pendiente_nit: espera el NIT o CUI de sus datos de facturación (SAT no admite consumidor final desde Q 2,500.00); correccion_en_tramite y corregida: su receptor se corrige (o se corrigió) anulándola o con una nota de crédito y emitiendo otra factura por la misma recarga, sin mover el saldo.',
      ),
    reemplaza_a: z.int().nullable().describe('El id de la factura que esta reemplaza al corregir el receptor; null si no reemplaza a ninguna.'),
    reemplazada_por: z.int().nullable().describe('El id de la factura que la reemplaza tras corregir su receptor; null mientras no la haya.'),
    estado_texto: z.string().describe('El estado en palabras, como lo muestra el portal.'),
    fecha_emision: z.string().describe('FechaHoraEmision (ISO 8601, UTC).'),
    fecha_certificacion: z.string().nullable().describe('FechaHoraCertificacion (ISO 8601, UTC); null mientras no esté certificada.'),
    serie: z.string().nullable(),
    numero: z.string().nullable().describe('Número del DTE; null mientras no esté certificada.'),
    uuid: z.string().nullable().describe('Número de autorización de SAT.'),
    total_centavos: centavos('Gran total'),
    total: quetzales('Gran total'),
    gravable_centavos: centavos('Monto gravable (sin IVA)'),
    iva_centavos: centavos('IVA; 0 en una FPEQ'),
    receptor: z.object({
      tipo: z.enum(['nit', 'cui', 'cf']),
      id: z.string().describe('El NIT (sin guion), el CUI, o CF.'),
      nombre: z.string().nullable().describe('El nombre que SAT tiene para ese NIT (o el del CUI); null en CF.'),
    }),
    xml: z.string().nullable().describe('Ruta, bajo {base_url}, del XML certificado; null mientras no esté certificada.'),
    pdf: z.string().nullable().describe('Ruta, bajo {base_url}, de su PDF; null mientras no esté certificada.'),
    documentos: z.array(documentSchema).describe('Su anulación o sus notas de crédito (una por reembolso parcial), las más antiguas primero.'),
  })
  .meta({ id: 'Factura', description: 'La factura electrónica (FEL) de una recarga acreditada, con su anulación o sus notas de crédito.' });

export const invoicesSchema = z
  .object({
    facturas: z.array(invoiceSchema).describe('La más reciente primero.'),
    moneda: z.literal('GTQ'),
    siguiente: z.string().nullable().describe('Pida la página siguiente (más antigua) con ?cursor= y este valor, con los mismos filtros; null en la última.'),
  })
  .meta({ id: 'Facturas', description: 'Una página de las facturas de su integración y sus documentos, como las muestra Facturas en el portal.' });

export type InvoiceBody = z.infer<typeof invoiceSchema>;
export type InvoicesBody = z.infer<typeof invoicesSchema>;
