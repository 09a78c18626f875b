// The monthly statement: issued (or found) for a month, and written as PDF and CSV on request.
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { statementChargesCsvStream } from '@/lib/flows/statements/csv';
import { statementInvoices } from '@/lib/flows/statements/invoices';
import { renderStatementPdf } from '@/lib/flows/statements/pdf';
import { issueStatement } from '@/lib/flows/statements/statements';
import { formatQuetzales } from '@/lib/platform/money';
import { env } from '@/lib/platform/settings/env';
import { LOOKUP_LABELS } from '@/lib/vocabulary/labels';
import { terminalSafe as safe } from '../terminal-text';
import { integrationByArg, required } from './arguments';
import { CLI_ACTOR, unwrap, type Commands } from './command';
import { count, LOOKUP_COLUMN, when } from './describe';

export const statementCommands: Commands = {
  'statements:create': {
    usage: {
      args: ['<id|nombre> <AAAA-MM> [--out DIRECTORIO]'],
      description: [
        'emite el estado de cuenta del mes (o lo encuentra, si ya se emitió); con --out',
        'escribe allí su PDF y el CSV de sus consultas cobradas',
      ],
    },
    async run(args, options) {
      const integration = await integrationByArg(args);
      const month = required(args, 1, 'el mes (AAAA-MM)');
      const statement = unwrap(await issueStatement(CLI_ACTOR, integration.id, month));
      const files: string[] = [];
      if (typeof options.out === 'string') {
        const directory = path.resolve(options.out);
        fs.mkdirSync(directory, { recursive: true });
        const pdf = path.join(directory, `estado-de-cuenta-${integration.nombre}-${month}.pdf`);
        fs.writeFileSync(pdf, await renderStatementPdf(statement, env().SERVICE_NAME, await statementInvoices(statement)));
        const csv = path.join(directory, `consultas-cobradas-${integration.nombre}-${month}.csv`);
        await pipeline(Readable.fromWeb(statementChargesCsvStream(integration.id, month, () => {}) as never), fs.createWriteStream(csv));
        files.push(pdf, csv);
      }
      const { figures } = statement;
      return {
        data: { ...statement, files },
        text: [
          `Estado de cuenta n.º ${statement.number} de ${safe(integration.nombre)}, ${month} (emitido el ${when(statement.createdAt)})`,
          `  saldo inicial ${formatQuetzales(figures.openingBalanceCentavos)}  recargas ${formatQuetzales(figures.topUps.totalCentavos)} (${count(figures.topUps.count)})` +
            `  ajustes ${formatQuetzales(figures.adjustments.totalCentavos)} (${count(figures.adjustments.count)})` +
            `  consultas cobradas ${formatQuetzales(-figures.charges.totalCentavos)} (${count(figures.charges.count)})` +
            (figures.constancias ? `  constancias ${formatQuetzales(-figures.constancias.totalCentavos)} (${count(figures.constancias.count)})` : '') +
            `  saldo final ${formatQuetzales(figures.closingBalanceCentavos)}`,
          ...figures.charges.lines.map(
            (line) => `    ${LOOKUP_LABELS[line.lookup].padEnd(LOOKUP_COLUMN)} a ${formatQuetzales(line.tariffCentavos)}: ${count(line.count)} = ${formatQuetzales(line.amountCentavos)}`,
          ),
          ...(figures.constancias?.lines ?? []).map(
            (line) => `    ${'Constancias de consulta'.padEnd(LOOKUP_COLUMN)} a ${formatQuetzales(line.tariffCentavos)}: ${count(line.count)} = ${formatQuetzales(line.amountCentavos)}`,
          ),
          ...files.map((file) => `  escrito: ${file}`),
        ].join('\n'),
      };
    },
  },
};
