import { versioningPolicyRoute } from '@/lib/api/route';

export const { GET } = versioningPolicyRoute();
