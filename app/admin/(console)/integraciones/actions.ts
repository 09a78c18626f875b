'use server';

// The entry points of the integrations' changes (create, tokens, flags, money, networks): lib/surfaces/console/integration-actions.ts.
import * as integrations from '@/lib/surfaces/console/integration-actions';

export const createIntegrationAction = integrations.createIntegrationAction;
export const setFlagAction = integrations.setFlagAction;
export const setConstanciasAction = integrations.setConstanciasAction;
export const setConstanciaRetentionAction = integrations.setConstanciaRetentionAction;
export const setConstanciasLegalHoldAction = integrations.setConstanciasLegalHoldAction;
export const setTariffAction = integrations.setTariffAction;
export const setConstanciaTariffAction = integrations.setConstanciaTariffAction;
export const setLowBalanceAlertAction = integrations.setLowBalanceAlertAction;
export const topUpAction = integrations.topUpAction;
export const adjustBalanceAction = integrations.adjustBalanceAction;
export const rotateTokenAction = integrations.rotateTokenAction;
export const createTokenAction = integrations.createTokenAction;
export const revokeTokenAction = integrations.revokeTokenAction;
export const setAllowedNetworksAction = integrations.setAllowedNetworksAction;
export const setIntegrationActiveAction = integrations.setIntegrationActiveAction;
export const setPurposeAction = integrations.setPurposeAction;
