// Imported first by cli/main.ts, before any module creates a logger at load time.
import { sendLogsToStderr } from '@/lib/logging/logger';

sendLogsToStderr();
