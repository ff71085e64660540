/**
 * What a fresh sign-in through each OAuth provider proves. A step-up ("confirm it is you") may accept a recent
 * provider sign-in only when the provider can be made to re-authenticate the person (OpenID Connect
 * `prompt=login` / `max_age=0`, checked against the ID token's `auth_time`). GitHub's OAuth cannot: a browser
 * still signed in to GitHub is sent straight back, so a "fresh" GitHub sign-in proves only access to that browser.
 * See docs/portal.md ("Signing in with GitHub").
 */
export interface OAuthProviderRules {
  label: string;
  /** True only when our authorization request forces a re-authentication and we verify that it happened. */
  forcesReauthentication: boolean;
}

export const OAUTH_PROVIDERS: Record<string, OAuthProviderRules> = {
  github: { label: 'GitHub', forcesReauthentication: false },
};

/** Whether a session that signed in through `provider` within the step-up window counts as proof. */
export function freshSignInProves(provider: string): boolean {
  return OAUTH_PROVIDERS[provider]?.forcesReauthentication ?? false;
}

export function providerLabel(provider: string): string {
  return OAUTH_PROVIDERS[provider]?.label ?? provider;
}
