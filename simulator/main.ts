// `npm run simulator`: serves the three upstream protocols on SIMULATOR_PORT until stopped.
// .env files count, as for the app: SIMULATOR_PORT set there moves the simulator too.
import '@/lib/platform/settings/load-env-files';

import { formatCuiGrouped } from '../lib/platform/guatemala/identifiers';
import { simulatorOptionsFromEnv } from './config';
import { FAULT_IDENTIFIERS, FAULT_NAMES } from './faults';
import { FEL_FAULT_NAMES, FEL_SIM_DEV_CREDENTIALS, FEL_SIM_RECEPTORS, parseFelFaultSpec } from './fel';
import { samplePopulation } from './population';
import { RECURRENTE_API_FAULTS, RECURRENTE_SIM_DECLINING_METHOD, RECURRENTE_WEBHOOK_FAULTS } from './recurrente';
import { startSimulator } from './server';
import { TSA_SIM_FAULTS } from './tsa';

async function main(): Promise<void> {
  const { logRequests, ...options } = simulatorOptionsFromEnv(process.env);
  const felFaults = parseFelFaultSpec(process.env.SIMULATOR_FEL_FAULT ?? '');
  const simulator = await startSimulator({
    ...options,
    fel: { faults: felFaults },
    log: logRequests ? (line) => console.log(`[simulator] ${new Date().toISOString()} ${line}`) : undefined,
  });
  const sample = samplePopulation({ seed: simulator.population.seed, size: simulator.population.size });
  const runFaults = Array.isArray(options.faults) && options.faults.length > 0
    ? options.faults.map((fault) => `${fault.protocols.join('+')}:${fault.fault}@${fault.rate}`).join(', ')
    : 'none';

  console.log(
    [
      `Upstream simulator listening on ${simulator.url}`,
      `  RENAP_BASE_URL=${simulator.url}/renap  RTU_BASE_URL=${simulator.url}/rtu  CATALOG_BASE_URL=${simulator.url}/catalog`,
      `  seed ${simulator.population.seed}, ${simulator.population.size} taxpayers; base latency ${options.latencyMs} ms, online +${options.onlineLatencyMs} ms; run faults: ${runFaults}`,
      '',
      'Example identifiers:',
      `  individual        NIT ${sample.individual.nit}  CUI ${sample.individual.cui ?? '-'}`,
      `  CUI as NIT        ${sample.cuiOnlyIndividual.nit} (printed ${formatCuiGrouped(sample.cuiOnlyIndividual.nit)})`,
      `  legal entity      NIT ${sample.legalEntity.nit}`,
      `  omiso             NIT ${sample.omiso.nit}`,
      `  coercive process  NIT ${sample.coerciveCollection.nit}`,
      `  no held copy      NIT ${sample.withoutHeldCopy.nit}  (catalog rtu needs date_of_birth ${sample.withoutHeldCopy.dateOfBirth})`,
      `  missing fields    NIT ${sample.withMissingFields.nit}`,
      `  unknown           NIT ${sample.unknownNit}  CUI ${sample.unknownCui}`,
      '',
      'Fault identifiers (NIT / CUI; docs/sources.md):',
      ...FAULT_NAMES.map((fault) => `  ${fault.padEnd(22)} ${FAULT_IDENTIFIERS[fault].nit.padEnd(10)} ${FAULT_IDENTIFIERS[fault].cui}`),
      '',
      `FEL certifier (INFILE's shapes; docs/fel.md): base URL ${simulator.url}/fel, NIT lookup ${simulator.url}/fel/receptores`,
      `  credentials UsuarioFirma ${FEL_SIM_DEV_CREDENTIALS.signingUser}, UsuarioApi ${FEL_SIM_DEV_CREDENTIALS.apiUser}; certifications per identifier: GET ${simulator.url}/fel/_sim/certificaciones`,
      `  receptors with fixed names: ${FEL_SIM_RECEPTORS.map((receptor) => receptor.nit).join(', ')}; faults (x-sim-fault or SIMULATOR_FEL_FAULT): ${FEL_FAULT_NAMES.join(', ')}` +
        (felFaults.length > 0 ? `; this run: ${felFaults.map((fault) => `${fault.fault}@${fault.rate}`).join(', ')}` : ''),
      '',
      `Recurrente (payments; docs/payments.md): RECURRENTE_API_URL=${simulator.url}/recurrente/api, X-PUBLIC-KEY ${options.recurrente?.keys?.publicKey ?? '-'} (and the X-SECRET-KEY of RECURRENTE_SECRET_KEY)`,
      `  webhooks to ${options.recurrente?.webhookUrl ?? '(none: set SIMULATOR_RECURRENTE_WEBHOOK_URL)'}; deliveries: GET ${simulator.url}/recurrente/_sim/webhooks`,
      `  pending transfers: POST ${simulator.url}/recurrente/_sim/transfers/<checkout>/settle|expire, or POST ${simulator.url}/recurrente/_sim/clock {"advance_ms": …}`,
      `  declining saved card ${RECURRENTE_SIM_DECLINING_METHOD}; API faults (x-sim-fault or SIMULATOR_RECURRENTE_FAULT): ${RECURRENTE_API_FAULTS.join(', ')}; webhook faults (in tests): ${RECURRENTE_WEBHOOK_FAULTS.join(', ')}`,
      '',
      `Time-stamping authority (RFC 3161): TSA_URL=${simulator.url}/tsa, its certificate: GET ${simulator.url}/tsa/certificado; faults (x-sim-fault): ${TSA_SIM_FAULTS.join(', ')}`,
    ].join('\n'),
  );

  const stop = (signal: NodeJS.Signals) => {
    console.log(`\n${signal}: stopping the simulator`);
    simulator.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((error: unknown) => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE' || code === 'EACCES') {
    // What to change, not only what happened: the app's three *_BASE_URL follow SIMULATOR_PORT.
    const port = simulatorOptionsFromEnv(process.env).port;
    console.error(
      `The simulator cannot listen on port ${port} (${code}): another program uses it. Set SIMULATOR_PORT to a free port ` +
        `(in the environment or in .env, e.g. SIMULATOR_PORT=${Number(port) + 1}); the app's RENAP_BASE_URL, RTU_BASE_URL and CATALOG_BASE_URL follow it unless set.`,
    );
  } else {
    console.error((error as Error).message);
  }
  process.exit(1);
});
