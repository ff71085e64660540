import { simulatePaymentEndpoint } from '@/lib/api/endpoints/invoices';
import { apiRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(simulatePaymentEndpoint);
