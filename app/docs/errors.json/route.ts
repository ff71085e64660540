import { errorsDocumentRoute } from '@/lib/api/route';

export const { GET } = errorsDocumentRoute();
