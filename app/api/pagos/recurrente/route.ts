// POST /api/pagos/recurrente - Recurrente's webhooks (lib/surfaces/api/payment-webhook.ts).
import { paymentWebhookRoute } from '@/lib/surfaces/api/payment-webhook';

export const dynamic = 'force-dynamic';

export const POST = paymentWebhookRoute('recurrente');
