// How the console writes an integration chosen from a field's suggestions: its name and number,
// "demo (n.º 12)". Typed back, the number names one integration even when names repeat. Shared by
// the fields (client) and the pages that resolve what they send (server).

export type IntegrationChoice = { id: number; nombre: string };

export function integrationChoiceLabel(integration: IntegrationChoice): string {
  return `${integration.nombre} (n.º ${integration.id})`;
}

/** Whether text is a suggestion as offered (ends in "(n.º 12)"). */
export function isIntegrationChoice(text: string): boolean {
  return /\(n\.º \d+\)$/.test(text.trim());
}
