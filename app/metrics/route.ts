import { metricsRoute } from '@/lib/metrics/route';

export const { GET } = metricsRoute();
