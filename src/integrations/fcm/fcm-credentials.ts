import { readFileSync } from 'node:fs';
import { ConfigError } from '../../config/config-error.js';

/** The parts of a Google service-account key file that push delivery needs. */
export interface ServiceAccount {
  projectId: string;
  clientEmail: string;
  privateKey: string;
  /** Where the signed JWT is exchanged for an access token (`token_uri` of the key file). */
  tokenUri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';

export interface FcmCredentialSources {
  serviceAccountJson?: string;
  credentialsFile?: string;
}

/**
 * Reads the service account from `FCM_SERVICE_ACCOUNT_JSON` (the key file's JSON text), else from
 * the file named by `GOOGLE_APPLICATION_CREDENTIALS`. Neither set → undefined (push is off).
 * A value that is set but unusable stops boot with a message naming the variable.
 */
export function loadServiceAccount(sources: FcmCredentialSources): ServiceAccount | undefined {
  if (sources.serviceAccountJson !== undefined) {
    return parseServiceAccount(sources.serviceAccountJson, 'FCM_SERVICE_ACCOUNT_JSON');
  }
  if (sources.credentialsFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(sources.credentialsFile, 'utf8');
    } catch (error) {
      throw new ConfigError(
        'GOOGLE_APPLICATION_CREDENTIALS',
        `names a file that cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
      );
    }
    return parseServiceAccount(text, 'GOOGLE_APPLICATION_CREDENTIALS');
  }
  return undefined;
}

function parseServiceAccount(text: string, variable: string): ServiceAccount {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ConfigError(variable, 'is not valid JSON (expected a service-account key file)');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw new ConfigError(variable, 'must hold a JSON object (a service-account key file)');
  }
  const fields = json as Record<string, unknown>;
  const missing = ['project_id', 'client_email', 'private_key'].filter(
    (name) => typeof fields[name] !== 'string' || fields[name].trim() === '',
  );
  if (missing.length > 0) {
    throw new ConfigError(variable, `is missing ${missing.join(', ')} (expected a service-account key file)`);
  }
  const tokenUri = typeof fields.token_uri === 'string' ? fields.token_uri : GOOGLE_TOKEN_URI;
  if (!/^https?:\/\//.test(tokenUri)) {
    throw new ConfigError(variable, `has a token_uri that is not an http(s) URL`);
  }
  return {
    projectId: fields.project_id as string,
    clientEmail: fields.client_email as string,
    privateKey: fields.private_key as string,
    tokenUri,
  };
}
