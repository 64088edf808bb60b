// All four elements in one bundle (/widgets/sgx-widgets.js).
import '../register.ts';
