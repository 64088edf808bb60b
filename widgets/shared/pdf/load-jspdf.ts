import { loadOnce } from '../loading/load-once.ts';

/** jsPDF (about 125 KiB gzip), downloaded on the first PDF a reader asks for, once per page. */
export const loadJsPdf = loadOnce(() => import('jspdf'), import.meta.url);
