// The public status's per-source and per-incident shapes (GET /api/estado), apart from the code that
// builds them, so the summary of them (summary.ts) reads them without importing that code.
import type { SourceName } from '@/lib/sources/guard';
import type { BucketState, SourceState } from './states';

export interface PublicSourceStatus {
  fuente: SourceName;
  nombre: string;
  estado: SourceState;
  /** Percent of the 90 days' source calls that did not fail for the source (null: no calls). */
  disponibilidad_90_dias: number | null;
  dias: Array<{ dia: string; disponibilidad: number | null; estado: BucketState }>;
  horas: Array<{ desde: string; disponibilidad: number | null; estado: BucketState }>;
}

export interface PublicIncident {
  fuente: SourceName;
  nombre: string;
  inicio: string;
  fin: string | null;
  en_curso: boolean;
  duracion_segundos: number;
}
