import type { PortalRole } from '../../db/schema';
import { ACTIVITY_READERS, BILLING_READERS, BULK_JOB_READERS, CREDENTIAL_READERS, NOTIFICATION_MANAGERS, PORTAL_ROLES, RECORD_READERS, TEAM_MANAGERS, TOP_UP_REPORTERS } from '../../lib/flows/portal-identity/roles';

// What the portal's role tables in the documentation (/docs, docs/integrators.md, the README) must
// say, read from the code that guards each page, so that a role changed in the code without its
// documentation fails tests/examples/portal-docs.test.ts and e2e/docs.spec.ts.

/** Who may open each portal page, by its name in the portal's navigation, from the list its page checks. */
export const PAGE_ROLES_IN_CODE: Readonly<Record<string, readonly PortalRole[]>> = {
  // app/portal/(sesion)/page.tsx and cuenta/page.tsx call requirePortalPage() with no roles.
  Inicio: PORTAL_ROLES,
  // app/portal/(sesion)/consultas: the record readers (owners and developers).
  Consultas: RECORD_READERS,
  Movimientos: BILLING_READERS,
  'Estados de cuenta': BILLING_READERS,
  Facturas: BILLING_READERS,
  Recargas: TOP_UP_REPORTERS,
  // Every role reads the jobs and their amounts; only owners and developers start, cancel and download (BULK_JOB_RUNNERS).
  Lotes: BULK_JOB_READERS,
  // Each run of a watch list is a job: who reads Lotes reads them; who runs jobs creates, pauses and deletes them.
  Vigilancia: BULK_JOB_READERS,
  Credenciales: CREDENTIAL_READERS,
  Notificaciones: NOTIFICATION_MANAGERS,
  Equipo: TEAM_MANAGERS,
  Actividad: ACTIVITY_READERS,
  'Mi cuenta': PORTAL_ROLES,
};

/** The name of the row about two-factor sign-in, in every role table. */
export const TWO_FACTOR_ROW = 'Verificación en dos pasos en producción';

/** Which of the three roles a table row marks, in role order. */
export type RoleMarks = Record<PortalRole, boolean>;

export function marksOf(roles: readonly PortalRole[]): RoleMarks {
  return Object.fromEntries(PORTAL_ROLES.map((role) => [role, roles.includes(role)])) as RoleMarks;
}

/** The page a row is about: the known page its first cell starts with, else the two-factor row, else the cell itself (unknown). */
export function pageOfRow(firstCell: string): string {
  const known = Object.keys(PAGE_ROLES_IN_CODE).sort((a, b) => b.length - a.length);
  const page = known.find((name) => firstCell.startsWith(name));
  if (page) return page;
  // After the pages: "Mi cuenta" mentions two-factor sign-in too.
  return /^verificación en dos pasos/i.test(firstCell) ? TWO_FACTOR_ROW : firstCell;
}

const YES = /^(✓|sí|obligatoria)$/i;
const NO = /^(—|no|opcional)$/i;

function roleOfHeader(cell: string): PortalRole | undefined {
  const plain = cell.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();
  return PORTAL_ROLES.find((role) => role === plain);
}

/**
 * The role table of a Markdown document: the table whose header names the three roles (in any
 * case, with or without accents), as page → marks. Throws when there is none or a cell is neither
 * a yes (✓, obligatoria) nor a no (—, opcional).
 */
export function markdownRoleTable(markdown: string): Map<string, RoleMarks> {
  const lines = markdown.split('\n');
  const headerAt = lines.findIndex((line) => {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    return cells.length === 4 && cells.slice(1).every((cell, index) => roleOfHeader(cell) === PORTAL_ROLES[index]);
  });
  if (headerAt === -1) throw new Error('no table with the columns propietario, desarrollador, facturacion');
  const rows = new Map<string, RoleMarks>();
  for (const line of lines.slice(headerAt + 2)) {
    if (!line.startsWith('|')) break;
    const [first, ...marks] = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const page = pageOfRow(first!.replaceAll('**', ''));
    rows.set(
      page,
      Object.fromEntries(
        PORTAL_ROLES.map((role, index) => {
          const mark = marks[index] ?? '';
          if (!YES.test(mark) && !NO.test(mark)) throw new Error(`«${page}», ${role}: «${mark}» is neither a yes nor a no`);
          return [role, YES.test(mark)];
        }),
      ) as RoleMarks,
    );
  }
  return rows;
}

/** Whether a rendered cell of /docs' table says yes ("Sí", "Obligatoria") or no ("No", "Opcional"). */
export function renderedMark(text: string): boolean {
  const mark = text.trim();
  if (YES.test(mark)) return true;
  if (NO.test(mark)) return false;
  throw new Error(`«${mark}» is neither a yes nor a no`);
}
