'use client';

import { createContext, useContext, useState, type ReactNode } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { useActionActivity } from '@/components/console/action-activity';
import type { PortalRole } from '@/db/schema';
import { PORTAL_ROLE_DESCRIPTIONS, PORTAL_ROLE_LABELS, PORTAL_ROLES } from '@/lib/surfaces/portal/page-access';
import type { IntegrationIdentityProviderView } from '@/lib/surfaces/portal/identity-provider';
import {
  cancelPortalInvitationAction,
  invitePortalMemberAction,
  removePortalIdentityProviderAction,
  passPortalMemberToProviderAction, removePortalMemberAction,
  resendPortalInvitationAction,
  savePortalIdentityProviderAction,
  setPortalMemberRoleAction,
} from './actions';

const ROLE_OPTIONS = PORTAL_ROLES.map((role) => ({ value: role, label: PORTAL_ROLE_LABELS[role] }));

// Removing a person or cancelling an invitation takes its row off the list, and a resent invitation
// replaces its row: a success notice inside the row's form went with it, and the owner never read
// it. The page shows it above the lists instead, until the next action starts, as the console's
// Portal section does (app/admin/(console)/integraciones/[id]/portal-user-forms.tsx).
const AnnounceContext = createContext<(notice: string) => void>(() => {});

export function TeamNotices({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<string | null>(null);
  useActionActivity(() => setNotice(null));
  return (
    <AnnounceContext.Provider value={setNotice}>
      {notice && (
        <p className="notice success" role="status" data-testid="team-notice">
          {notice}
        </p>
      )}
      {children}
    </AnnounceContext.Provider>
  );
}

export function InviteMemberForm() {
  return (
    <ActionForm action={invitePortalMemberAction} submitLabel="Enviar invitación" pendingLabel="Enviando…" resetOnSuccess>
      <Field name="email" label="Correo electrónico" type="email" autoComplete="off" required maxLength={254} data-testid="invite-email" />
      <Field
        name="rol"
        label="Rol"
        options={ROLE_OPTIONS}
        defaultValue="desarrollador"
        hint={PORTAL_ROLES.map((role) => `${PORTAL_ROLE_LABELS[role]}: ${PORTAL_ROLE_DESCRIPTIONS[role]}`).join('. ') + '.'}
        data-testid="invite-role"
      />
    </ActionForm>
  );
}

export function MemberRoleForm({ memberId, name, role }: { memberId: number; name: string; role: PortalRole }) {
  return (
    <ActionForm action={setPortalMemberRoleAction} hidden={{ miembro: memberId }} submitLabel="Cambiar rol" pendingLabel="Cambiando…" className="inline" submitClassName="secondary">
      <Field name="rol" label={`Rol de ${name}`} options={ROLE_OPTIONS} defaultValue={role} />
    </ActionForm>
  );
}

export function RemoveMemberForm({ memberId, name }: { memberId: number; name: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={removePortalMemberAction}
      hidden={{ miembro: memberId }}
      submitLabel="Quitar del equipo"
      pendingLabel="Quitando…"
      className="inline"
      submitClassName="danger secondary"
      confirmation={{
        kind: 'text',
        title: `¿Quitar a ${name} del equipo?`,
        message: 'Sus sesiones se cierran y ya no podrá entrar al portal. Los tokens de la integración siguen funcionando.',
        confirmLabel: 'Quitar del equipo',
      }}
      onSuccess={(data) => announce(data.notice)}
      renderSuccess={() => null}
    >
      {null}
    </ActionForm>
  );
}

export function PassToProviderForm({ memberId, name }: { memberId: number; name: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <ActionForm
      action={passPortalMemberToProviderAction}
      hidden={{ miembro: memberId }}
      submitLabel="Pasar a la cuenta de la empresa"
      pendingLabel="Cambiando…"
      className="inline"
      submitClassName="secondary"
      confirmation={{
        kind: 'text',
        title: `¿${name} entrará con la cuenta de la empresa?`,
        message:
          'Su contraseña deja de servir y sus sesiones se cierran ahora. En su siguiente ingreso con la cuenta de la empresa, esa cuenta (el mismo correo) queda vinculada a esta persona, y su rol será el que digan sus grupos.',
        confirmLabel: 'Pasar a la cuenta de la empresa',
      }}
      onSuccess={(data) => announce(data.notice)}
      renderSuccess={() => null}
    >
      {null}
    </ActionForm>
  );
}

export function InvitationActions({ invitationId, email }: { invitationId: number; email: string }) {
  const announce = useContext(AnnounceContext);
  return (
    <div className="row-actions">
      <ActionForm
        action={resendPortalInvitationAction}
        hidden={{ invitacion: invitationId }}
        submitLabel="Reenviar"
        pendingLabel="Enviando…"
        className="inline"
        submitClassName="secondary"
        onSuccess={(data) => announce(data.notice)}
        renderSuccess={() => null}
      >
        {null}
      </ActionForm>
      <ActionForm
        action={cancelPortalInvitationAction}
        hidden={{ invitacion: invitationId }}
        submitLabel="Cancelar invitación"
        pendingLabel="Cancelando…"
        className="inline"
        submitClassName="danger secondary"
        confirmation={{ kind: 'text', title: `¿Cancelar la invitación a ${email}?`, message: 'Su enlace deja de servir.', confirmLabel: 'Cancelar invitación' }}
        onSuccess={(data) => announce(data.notice)}
        renderSuccess={() => null}
      >
        {null}
      </ActionForm>
    </div>
  );
}

/** What the provider's form starts from: the stored provider, without its secret (never sent to the browser). */
export type IdentityProviderFormValues = Pick<IntegrationIdentityProviderView, 'issuer' | 'clientId' | 'emailDomain' | 'roleClaim' | 'roleValues' | 'breakGlassEmails'>;

/**
 * «Inicio de sesión con la cuenta de la empresa»: the company's provider, checked when saved. The
 * secret is write-only: a stored one is kept when the field is left empty. After a save the fields
 * go back to what was stored (the secret empty again).
 */
export function IdentityProviderForm({ provider }: { provider: IdentityProviderFormValues | null }) {
  const stored = provider !== null;
  return (
    <ActionForm action={savePortalIdentityProviderAction} submitLabel="Guardar" pendingLabel="Comprobando y guardando…" resetOnSuccess>
      <Field
        name="emisor"
        label="Emisor (issuer)"
        type="url"
        autoComplete="off"
        required
        maxLength={2000}
        defaultValue={provider?.issuer ?? ''}
        placeholder="https://"
        hint="La dirección de su proveedor tal como él la publica: en Microsoft Entra ID, login.microsoftonline.com con el id de su directorio y /v2.0; en Google, accounts.google.com. Al guardar comprobamos que responde."
        data-testid="idp-issuer"
      />
      <Field
        name="cliente"
        label="Id de cliente"
        autoComplete="off"
        required
        maxLength={500}
        defaultValue={provider?.clientId ?? ''}
        hint="El que le dio su proveedor al registrar el portal como aplicación."
        data-testid="idp-client-id"
      />
      <Field
        name="secreto"
        label="Secreto del cliente"
        type="password"
        autoComplete="new-password"
        required={!stored}
        maxLength={2000}
        placeholder={stored ? 'sin cambios' : undefined}
        hint={
          stored
            ? 'Está guardado y cifrado; no se vuelve a mostrar. Déjelo vacío para conservarlo o escriba uno nuevo para reemplazarlo (si cambia el emisor, escriba el del nuevo proveedor).'
            : 'El que le dio su proveedor junto con el id de cliente. Se guarda cifrado y no se vuelve a mostrar.'
        }
        data-testid="idp-client-secret"
      />
      <Field
        name="dominio"
        label="Dominio de correo"
        autoComplete="off"
        required
        maxLength={253}
        defaultValue={provider?.emailDomain ?? ''}
        placeholder="empresa.com.gt"
        hint="Quienes entren con un correo de este dominio lo harán con la cuenta de la empresa."
        data-testid="idp-email-domain"
      />
      <Field
        name="atributo"
        label="Atributo de roles"
        autoComplete="off"
        maxLength={200}
        defaultValue={provider?.roleClaim ?? 'groups'}
        hint="El dato del inicio de sesión en el que su proveedor envía los grupos de la persona. Si lo deja vacío, groups."
        data-testid="idp-role-claim"
      />
      {PORTAL_ROLES.map((role) => (
        <Field
          key={role}
          name={role}
          label={`Valores para ${PORTAL_ROLE_LABELS[role]}`}
          autoComplete="off"
          maxLength={12000}
          defaultValue={provider?.roleValues[role].join(', ') ?? ''}
          hint={
            role === 'propietario'
              ? 'Los grupos de su proveedor que dan este rol, separados por comas. Escriba al menos uno en alguno de los tres roles: quien no tenga ninguno de estos grupos no entra con la cuenta de la empresa.'
              : 'Los grupos de su proveedor que dan este rol, separados por comas; puede dejarlo vacío.'
          }
          data-testid={`idp-role-values-${role}`}
        />
      ))}
      <Field
        name="emergencia"
        label="Cuentas de emergencia"
        autoComplete="off"
        maxLength={10000}
        defaultValue={provider?.breakGlassEmails.join(', ') ?? ''}
        hint="Correos de personas del equipo, separados por comas, que siguen entrando con su contraseña: para cuando el proveedor no responda. Le recomendamos incluir al menos a un propietario."
        data-testid="idp-break-glass"
      />
    </ActionForm>
  );
}

export function RemoveIdentityProviderForm() {
  return (
    <ActionForm
      action={removePortalIdentityProviderAction}
      submitLabel="Quitar"
      pendingLabel="Quitando…"
      className="inline"
      submitClassName="danger secondary"
      confirmation={{
        kind: 'text',
        title: '¿Quitar el inicio de sesión con la cuenta de la empresa?',
        message:
          'Las personas del equipo volverán a entrar con su correo y contraseña; quien entraba solo con la cuenta de la empresa tendrá que crear una con «¿Olvidó su contraseña?». Para volver a activarlo tendrá que escribir de nuevo el secreto del cliente.',
        confirmLabel: 'Quitar',
      }}
    >
      {null}
    </ActionForm>
  );
}
