'use client';

import { useCallback, useEffect, useId, useState } from 'react';
import { ActionForm, Field } from '@/components/console/action-form';
import { SecretReveal } from '@/components/console/secret-reveal';
import { ROLE_LABELS } from '@/lib/presentation/labels';
import { allowIdentityProviderLinkAction, createUserAction, endUserSessionsAction, resetUserPasswordAction, resetUserTwoFactorAction, setUserActiveAction, setUserRoleAction } from './actions';

const PASSWORD_SHOWN_EVENT = 'consola:usuarios:contrasena-mostrada';

/**
 * One password on screen at a time: showing one (a new user's, a reset's) takes away the one shown
 * before, which would otherwise stay beside it and be handed to the wrong person.
 */
function useOnePasswordOnScreen<T>(): [T | null, (value: T) => void] {
  const id = useId();
  const [shown, setShown] = useState<T | null>(null);
  useEffect(() => {
    const hideUnlessMine = (event: Event) => {
      if ((event as CustomEvent<string>).detail !== id) setShown(null);
    };
    window.addEventListener(PASSWORD_SHOWN_EVENT, hideUnlessMine);
    return () => window.removeEventListener(PASSWORD_SHOWN_EVENT, hideUnlessMine);
  }, [id]);
  const show = useCallback(
    (value: T) => {
      setShown(value);
      window.dispatchEvent(new CustomEvent(PASSWORD_SHOWN_EVENT, { detail: id }));
    },
    [id],
  );
  return [shown, show];
}

export function CreateUserForm() {
  const [created, setCreated] = useOnePasswordOnScreen<{ email: string; password: string }>();
  return (
    <>
      <ActionForm action={createUserAction} submitLabel="Crear usuario" pendingLabel="Creando…" resetOnSuccess onSuccess={setCreated}>
        <div className="grid grid-3">
          <Field name="email" label="Correo electrónico" type="email" autoComplete="off" />
          <Field name="name" label="Nombre" autoComplete="off" />
          <Field
            name="role"
            label="Rol"
            hint="Soporte solo consulta; administrador puede cambiarlo todo."
            defaultValue="support"
            options={[
              { value: 'support', label: ROLE_LABELS.support },
              { value: 'admin', label: ROLE_LABELS.admin },
            ]}
          />
        </div>
      </ActionForm>
      {created && (
        <div style={{ marginTop: '0.75rem' }}>
          <SecretReveal title={`Contraseña inicial de ${created.email}`} secret={created.password} testId="new-user-password" feminine />
          <p className="small">Entrégasela por un canal seguro; al entrar por primera vez la consola le pedirá elegir la suya.</p>
        </div>
      )}
    </>
  );
}

interface UserRowActionsProps {
  userId: number;
  name: string;
  email: string;
  role: 'admin' | 'support';
  active: boolean;
  isSelf: boolean;
  activeSessions: number;
  /** The user has two-factor sign-in: an administrator can reset it (a lost phone). */
  twoFactor: boolean;
  /** local: a password of the console; identity_provider: the role and the password are the directory's. */
  origin: 'local' | 'identity_provider';
  /** The identity provider's name when this local account may be passed to it; else null. */
  linkableTo: string | null;
}

export function UserRowActions({ userId, name, email, role, active, isSelf, activeSessions, twoFactor, origin, linkableTo }: UserRowActionsProps) {
  // The menu shows the saved role again when a change is cancelled or refused (the last admin's
  // demotion): a value that was never saved must not look saved.
  const [chosenRole, setChosenRole] = useState(role);
  const [savedRole, setSavedRole] = useState(role);
  if (savedRole !== role) {
    setSavedRole(role);
    setChosenRole(role);
  }
  const [resetPassword, showResetPassword] = useOnePasswordOnScreen<string>();
  return (
    <div style={{ display: 'grid', gap: '0.5rem' }}>
      {origin === 'local' && (
        <>
          <ActionForm
            action={setUserRoleAction}
            hidden={{ userId }}
            submitLabel="Cambiar rol"
            className="inline"
            submitClassName="secondary"
            confirmation={{ kind: 'promotion', name, email, currentRole: role }}
            onNotSaved={() => setChosenRole(role)}
          >
            <label className="sr-only" htmlFor={`role-${userId}`}>
              Rol de {email}
            </label>
            <select
              id={`role-${userId}`}
              name="role"
              value={chosenRole}
              onChange={(event) => setChosenRole(event.target.value as UserRowActionsProps['role'])}
              style={{ width: 'auto' }}
            >
              <option value="support">{ROLE_LABELS.support}</option>
              <option value="admin">{ROLE_LABELS.admin}</option>
            </select>
          </ActionForm>
          <ActionForm
            action={resetUserPasswordAction}
            hidden={{ userId }}
            submitLabel="Restablecer contraseña"
            pendingLabel="Restableciendo…"
            className="inline"
            submitClassName="secondary"
            confirmation={{
              kind: 'text',
              title: `¿Restablecer la contraseña de ${email}?`,
              message: 'Sus sesiones abiertas terminarán; entrará con la nueva contraseña y la consola le pedirá elegir la suya.',
              confirmLabel: 'Restablecer contraseña',
            }}
            onSuccess={({ password }) => showResetPassword(password)}
            renderSuccess={() => null}
          >
            {null}
          </ActionForm>
          {resetPassword && <SecretReveal title={`Nueva contraseña de ${email}`} secret={resetPassword} feminine />}
        </>
      )}
      {!isSelf && linkableTo && (
        <ActionForm
          action={allowIdentityProviderLinkAction}
          hidden={{ userId }}
          submitLabel={`Pasar a ${linkableTo}`}
          pendingLabel="Cambiando…"
          className="inline"
          submitClassName="secondary"
          confirmation={{
            kind: 'text',
            title: `¿${email} entrará con ${linkableTo}?`,
            message: `Su contraseña deja de servir y sus sesiones terminan ahora. En su siguiente inicio de sesión con ${linkableTo}, la cuenta de ese proveedor con este mismo correo quedará vinculada a este usuario, y su rol lo decidirá el directorio.`,
            confirmLabel: 'Pasar al proveedor',
          }}
        >
          {null}
        </ActionForm>
      )}
      {!isSelf && twoFactor && (
        <ActionForm
          action={resetUserTwoFactorAction}
          hidden={{ userId }}
          submitLabel="Restablecer verificación en dos pasos"
          pendingLabel="Restableciendo…"
          className="inline"
          submitClassName="secondary"
          confirmation={{
            kind: 'text',
            title: `¿Restablecer la verificación en dos pasos de ${email}?`,
            message:
              'Hazlo solo si confirmaste por otro medio que es esa persona (perdió o cambió el teléfono). Su aplicación y sus códigos de recuperación dejan de servir y sus sesiones terminan; al entrar con su contraseña podrá activarla de nuevo.',
            confirmLabel: 'Restablecer verificación',
          }}
        >
          {null}
        </ActionForm>
      )}
      {!isSelf && activeSessions > 0 && (
        <ActionForm
          action={endUserSessionsAction}
          hidden={{ userId }}
          submitLabel="Cerrar sus sesiones"
          pendingLabel="Cerrando…"
          className="inline"
          submitClassName="secondary"
          confirmation={{
            kind: 'text',
            title: `¿Cerrar todas las sesiones de ${email}?`,
            message: 'Cada navegador donde tenga la consola abierta saldrá en su siguiente clic; su contraseña no cambia.',
            confirmLabel: 'Cerrar sus sesiones',
          }}
        >
          {null}
        </ActionForm>
      )}
      {!isSelf && (
        <ActionForm
          action={setUserActiveAction}
          hidden={{ userId, active: String(!active) }}
          submitLabel={active ? 'Desactivar' : 'Reactivar'}
          className="inline"
          submitClassName={active ? 'danger secondary' : 'secondary'}
          confirmation={
            active
              ? { kind: 'text', title: `¿Desactivar a ${email}?`, message: 'No podrá entrar y sus sesiones abiertas terminarán.', confirmLabel: 'Desactivar' }
              : undefined
          }
        >
          {null}
        </ActionForm>
      )}
    </div>
  );
}
