import { authApi } from '../../../contract/auth';
import { client } from '../../lib/api-client';

/** The typed client of the sign-in calls; auth.api.ts loads it with the first call. */
export const auth = client(authApi);
