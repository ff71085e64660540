import { createInvoiceEndpoint, listInvoicesEndpoint } from '@/lib/api/endpoints/invoices';
import { apiRoute } from '@/lib/api/route';

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = apiRoute(listInvoicesEndpoint, createInvoiceEndpoint);
