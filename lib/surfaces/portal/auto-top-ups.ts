import { AUTO_TOP_UP_OWNERS, autoTopUpOf, cardPaymentsOf, DAILY_MAX_LIMIT, disableAutoTopUp, enableAutoTopUp, type AutoTopUpView } from '@/lib/flows/auto-top-ups/auto-top-ups';
import { AUTO_TOP_UP_MESSAGES, AUTO_TOP_UP_STATE_LABELS, autoTopUpFirstChargeSoon, autoTopUpPausedMessage, autoTopUpSummary, savedCardLabel } from '@/lib/flows/auto-top-ups/messages';
import { quoteOnlineTopUp } from '@/lib/flows/online-top-ups/payments';
import { onlineTopUpSettings } from '@/lib/flows/online-top-ups/settings';
import { formatQuetzales } from '@/lib/platform/money';
import { formatDateTime } from '@/lib/platform/time/guatemala-time';
import { configuredPaymentProvider } from '@/lib/providers/payments/configured';
import { portalBalance } from './home';
import type { PortalUserSession } from './session';

// "Recarga automática" (owners only): the card of an online payment is charged when the balance
// falls under the threshold, at most the daily maximum (lib/flows/auto-top-ups). What the page shows
// and what its forms do, only for the session's integration: a payment id of another integration is
// answered as no card at all.

/** Who may open the page and use its forms. */
export { AUTO_TOP_UP_OWNERS };

/** What the form takes: the most charges a day, and the words for what was typed wrong. */
export { AUTO_TOP_UP_MESSAGES, DAILY_MAX_LIMIT };

export interface PortalAutoTopUpPage extends AutoTopUpView {
  /** Whether online payments are configured (without them it cannot be turned on). */
  paysOnline: boolean;
  /** The cards the form offers (those of online payments, and the one saved when it is no longer among them). */
  cardOptions: Array<{ value: string; label: string }>;
  /** The saved card as words. */
  savedCard: string;
  /** The form's values: the saved setting's, or the first card and a daily maximum of 2. */
  values: { pago: string; umbral: string; monto: string; maximo: string };
  amountHint: string;
  /** The setting's state as words, and (on or paused) what it does with its fee; null without a setting. */
  stateLabel: string | null;
  summary: string | null;
  /** Why it is paused, as words; null unless paused with a reason. */
  pausedMessage: string | null;
}

export async function portalAutoTopUpPage(user: PortalUserSession): Promise<PortalAutoTopUpPage> {
  const [view, cards] = await Promise.all([autoTopUpOf(user.integrationId), cardPaymentsOf(user.integrationId)]);
  const { setting } = view;
  const settings = onlineTopUpSettings();
  const cardOptions = cards.map((card) => ({ value: card.id, label: savedCardLabel(card.card, { amountCentavos: card.amountCentavos, settledOn: card.settledAt ? formatDateTime(card.settledAt).slice(0, 10) : null }) }));
  const savedCard = savedCardLabel(setting?.cardNetwork && setting.cardLast4 ? { network: setting.cardNetwork, last4: setting.cardLast4 } : null);
  if (setting && !cards.some((card) => card.id === setting.sourcePaymentId)) cardOptions.unshift({ value: setting.sourcePaymentId, label: savedCard });
  const fee = setting ? quoteOnlineTopUp(setting.amountCentavos) : null;
  return {
    ...view,
    paysOnline: configuredPaymentProvider() !== null,
    cardOptions,
    savedCard,
    values: setting
      ? { pago: setting.sourcePaymentId, umbral: (setting.thresholdCentavos / 100).toFixed(2), monto: (setting.amountCentavos / 100).toFixed(2), maximo: String(setting.dailyMax) }
      : { pago: cardOptions[0]?.value ?? '', umbral: '', monto: '', maximo: '2' },
    amountHint: `Entre ${formatQuetzales(settings.ONLINE_TOP_UP_MIN_CENTAVOS)} y ${formatQuetzales(settings.ONLINE_TOP_UP_MAX_CENTAVOS)}, más la comisión del pago en línea.`,
    stateLabel: setting ? AUTO_TOP_UP_STATE_LABELS[setting.state] : null,
    summary: setting && setting.state !== 'off' && fee?.ok ? autoTopUpSummary({ thresholdCentavos: setting.thresholdCentavos, amountCentavos: setting.amountCentavos, feeCentavos: fee.value.feeCentavos, dailyMax: setting.dailyMax }) : null,
    pausedMessage: setting?.state === 'paused' && setting.pausedReason ? autoTopUpPausedMessage(setting.pausedReason) : null,
  };
}

/**
 * «Activar», which also changes it and resumes it after a pause: what the owner is told, with its
 * fee, and (a threshold above the balance charges the card at the next check) said now, not
 * discovered later.
 */
export async function enablePortalAutoTopUp(
  user: PortalUserSession,
  choice: { sourcePaymentId: string; thresholdCentavos: number; amountCentavos: number; dailyMax: number },
): Promise<{ ok: false; message: string; fieldErrors?: Partial<Record<'umbral' | 'monto' | 'maximo' | 'pago', string>> } | { ok: true; message: string }> {
  const result = await enableAutoTopUp(configuredPaymentProvider(), user, choice);
  if (!result.ok) return { ok: false, message: result.error.message, fieldErrors: result.fieldErrors };
  const quote = quoteOnlineTopUp(choice.amountCentavos);
  const fee = quote.ok ? quote.value.feeCentavos : 0;
  const balance = await portalBalance(user);
  const firstCharge = balance < choice.thresholdCentavos ? ` ${autoTopUpFirstChargeSoon(balance, choice.amountCentavos + fee)}` : '';
  return {
    ok: true,
    message: `${AUTO_TOP_UP_MESSAGES.enabled} ${autoTopUpSummary({ thresholdCentavos: choice.thresholdCentavos, amountCentavos: choice.amountCentavos, feeCentavos: fee, dailyMax: choice.dailyMax })}${firstCharge}`,
  };
}

/** Turns it off. */
export function disablePortalAutoTopUp(user: PortalUserSession) {
  return disableAutoTopUp(user);
}
