// The sign-in methods this service offers, in one place for GET /server_settings and register:
// password login (upstream's Email backend) everywhere, the development login only in
// development mode, and none of upstream's other backends (LDAP, remote user, social, SAML, OIDC).
import { config } from '../config';

/** Register's realm_authentication_methods: the enabled backends, by upstream's backend name. */
export const realmAuthenticationMethods = (): Record<string, { enabled: boolean; available: boolean }> => ({
  Email: { enabled: true, available: true },
  ...(config.isDevelopment() ? { Dev: { enabled: true, available: true } } : {}),
});

/** GET /server_settings' deprecated authentication_methods, in upstream's key order (feature level 485). */
export const serverAuthenticationMethods = (): Record<string, boolean> => ({
  password: true,
  dev: config.isDevelopment(),
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  'openid connect': false,
});
