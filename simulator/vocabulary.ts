// Words the synthetic population is made of: Guatemalan given names and surnames (Spanish and
// Mayan), company naming patterns, economic activities with their CIIU codes, and the SAT
// catalogs (regimes, forms, special traits) from the domain notes.

export const MALE_GIVEN_NAMES = [
  'José', 'Juan', 'Luis', 'Carlos', 'Jorge', 'Mario', 'Miguel', 'Pedro', 'Francisco', 'Manuel',
  'Edgar', 'Byron', 'Otto', 'Erick', 'Julio', 'César', 'Oscar', 'Rudy', 'Hugo', 'Sergio',
  'Marvin', 'Selvin', 'Wilson', 'Estuardo', 'Rolando', 'Fernando', 'Alejandro', 'Diego', 'Pablo', 'Andrés',
  'Ángel', 'Antonio', 'Rafael', 'Roberto', 'Ricardo', 'Héctor', 'Gustavo', 'Rigoberto', 'Ruptilio', 'Baldomero',
  'Domingo', 'Tomás', 'Sebastián', 'Gaspar', 'Mynor', 'Cristian', 'Kevin', 'Brandon', 'Josué', 'Abner',
] as const;

export const FEMALE_GIVEN_NAMES = [
  'María', 'Ana', 'Rosa', 'Carmen', 'Marta', 'Lucía', 'Sandra', 'Claudia', 'Gloria', 'Sonia',
  'Ingrid', 'Mayra', 'Brenda', 'Karla', 'Wendy', 'Lesbia', 'Heidy', 'Flor', 'Elena', 'Juana',
  'Catarina', 'Magdalena', 'Petrona', 'Candelaria', 'Dominga', 'Isabel', 'Teresa', 'Patricia', 'Silvia', 'Gabriela',
  'Andrea', 'Alejandra', 'Daniela', 'Fernanda', 'Jennifer', 'Dulce', 'Mirna', 'Olga', 'Vilma', 'Zoila',
  'Estela', 'Beatriz', 'Lourdes', 'Yolanda', 'Aura', 'Ixchel', 'Rocío', 'Evelyn', 'Jaqueline', 'Mónica',
] as const;

export const SURNAMES = [
  'García', 'López', 'Pérez', 'Hernández', 'Morales', 'Rodríguez', 'González', 'Ramírez', 'Mendoza', 'Castillo',
  'Cifuentes', 'Rosales', 'Chávez', 'Quiñónez', 'Orellana', 'Barrios', 'Monterroso', 'Estrada', 'Godoy', 'Marroquín',
  'Juárez', 'Reyes', 'Flores', 'Aguilar', 'Ortiz', 'Vásquez', 'Muñoz', 'Alvarado', 'Sandoval', 'Velásquez',
  'Arévalo', 'De León', 'Samayoa', 'Solórzano', 'Recinos', 'Pineda', 'Fuentes', 'Gálvez', 'Cabrera', 'Ordóñez',
  'Ajú', 'Xicará', 'Tzul', 'Coj', 'Batz', 'Cux', 'Xoc', 'Caal', 'Choc', 'Pop',
  'Tut', 'Ical', 'Maquín', 'Sic', 'Chen', 'Tuyuc', 'Tzoc', 'Quiej', 'Ajanel', 'Chiroy',
] as const;

export const OCCUPATIONS = [
  'COMERCIANTE', 'AGRICULTOR', 'ESTUDIANTE', 'MAESTRO', 'PERITO CONTADOR', 'ALBAÑIL', 'PILOTO', 'ENFERMERA',
  'MÉDICO Y CIRUJANO', 'ABOGADO Y NOTARIO', 'INGENIERO', 'SECRETARIA', 'AMA DE CASA', 'MECÁNICO', 'CARPINTERO', 'SASTRE',
] as const;

export const COMPANY_FORMS = [
  { suffix: 'SOCIEDAD ANONIMA', short: 'S.A.', kind: 'SOCIEDAD ANONIMA', weight: 70 },
  { suffix: 'SOCIEDAD DE RESPONSABILIDAD LIMITADA', short: 'LTDA.', kind: 'SOCIEDAD DE RESPONSABILIDAD LIMITADA', weight: 8 },
  { suffix: 'SOCIEDAD COLECTIVA', short: 'Y CIA.', kind: 'SOCIEDAD COLECTIVA', weight: 3 },
  { suffix: 'RESPONSABILIDAD LIMITADA', short: 'R.L.', kind: 'COOPERATIVA', weight: 9 },
  { suffix: '', short: '', kind: 'ASOCIACION', weight: 10 },
] as const;

export const COMPANY_PREFIXES = [
  'DISTRIBUIDORA', 'INVERSIONES', 'COMERCIALIZADORA', 'CONSTRUCTORA', 'AGROINDUSTRIAS', 'SERVICIOS', 'IMPORTADORA',
  'TRANSPORTES', 'CORPORACION', 'DESARROLLOS', 'EXPORTADORA', 'GRUPO', 'INDUSTRIAS', 'TECNOLOGIA', 'CONSULTORES',
] as const;

export const COMPANY_CORE_WORDS = [
  'DEL PACIFICO', 'LOS ALTOS', 'EL QUETZAL', 'LA CEIBA', 'MAYA', 'CENTROAMERICANA', 'DEL ATLANTICO', 'LA ESTRELLA',
  'SAN JOSE', 'EL VOLCAN', 'ATITLAN', 'LA MONTAÑA', 'DEL VALLE', 'EL SOL', 'TIKAL', 'IXCHEL', 'LA UNION', 'GUATEMALTECA',
  'DEL NORTE', 'LAS AMERICAS', 'EL MIRADOR', 'LA ANTIGUA', 'CUCHUMATANES', 'KAQCHIKEL', 'EL PROGRESO', 'LA FUENTE',
] as const;

export const ASSOCIATION_PREFIXES = ['ASOCIACION', 'FUNDACION', 'ASOCIACION DE DESARROLLO INTEGRAL', 'COOPERATIVA AGRICOLA INTEGRAL'] as const;

export const TRADE_NAME_WORDS = [
  'TIENDA', 'ABARROTERIA', 'FERRETERIA', 'FARMACIA', 'LIBRERIA', 'COMEDOR', 'PANADERIA', 'TALLER', 'SALON', 'AGROSERVICIO',
  'CAFETERIA', 'MINISUPER', 'CLINICA', 'BUFETE', 'ACADEMIA', 'DEPOSITO', 'VARIEDADES', 'CARNICERIA', 'TORTILLERIA', 'ZAPATERIA',
] as const;

export const TRADE_NAME_QUALIFIERS = [
  'LA BENDICION', 'EL BUEN PRECIO', 'LA ECONOMICA', 'SAN JUDAS', 'LA FE', 'EL ESFUERZO', 'DON CHEPE', 'LA ESPERANZA',
  'EL AHORRO', 'LA PREFERIDA', 'LAS FLORES', 'EL RINCONCITO', 'SANTA ELENA', 'LA PALMA', 'EL MANANTIAL', 'LA CENTRAL',
] as const;

/** Economic activities (CIIU rev. 4 codes) with the SAT sector they fall under. */
export const ECONOMIC_ACTIVITIES = [
  { ciiu: '4711', name: 'VENTA AL POR MENOR EN COMERCIOS NO ESPECIALIZADOS CON PREDOMINIO DE ALIMENTOS', sector: 3, trade: 'TIENDA' },
  { ciiu: '4752', name: 'VENTA AL POR MENOR DE ARTICULOS DE FERRETERIA, PINTURAS Y PRODUCTOS DE VIDRIO', sector: 3, trade: 'FERRETERIA' },
  { ciiu: '4771', name: 'VENTA AL POR MENOR DE PRENDAS DE VESTIR, CALZADO Y ARTICULOS DE CUERO', sector: 3, trade: 'VARIEDADES' },
  { ciiu: '4772', name: 'VENTA AL POR MENOR DE PRODUCTOS FARMACEUTICOS Y MEDICINALES', sector: 3, trade: 'FARMACIA' },
  { ciiu: '4630', name: 'VENTA AL POR MAYOR DE ALIMENTOS, BEBIDAS Y TABACO', sector: 3, trade: 'DEPOSITO' },
  { ciiu: '4659', name: 'VENTA AL POR MAYOR DE OTROS TIPOS DE MAQUINARIA Y EQUIPO', sector: 3, trade: 'DEPOSITO' },
  { ciiu: '5610', name: 'ACTIVIDADES DE RESTAURANTES Y DE SERVICIO MOVIL DE COMIDAS', sector: 4, trade: 'COMEDOR' },
  { ciiu: '5510', name: 'ACTIVIDADES DE ALOJAMIENTO PARA ESTANCIAS CORTAS', sector: 4, trade: 'HOTEL' },
  { ciiu: '4520', name: 'MANTENIMIENTO Y REPARACION DE VEHICULOS AUTOMOTORES', sector: 4, trade: 'TALLER' },
  { ciiu: '9602', name: 'PELUQUERIA Y OTROS TRATAMIENTOS DE BELLEZA', sector: 4, trade: 'SALON' },
  { ciiu: '6201', name: 'ACTIVIDADES DE PROGRAMACION INFORMATICA', sector: 4, trade: 'SOLUCIONES' },
  { ciiu: '6920', name: 'ACTIVIDADES DE CONTABILIDAD, TENEDURIA DE LIBROS Y AUDITORIA; CONSULTORIA FISCAL', sector: 4, trade: 'DESPACHO' },
  { ciiu: '6910', name: 'ACTIVIDADES JURIDICAS', sector: 4, trade: 'BUFETE' },
  { ciiu: '7020', name: 'ACTIVIDADES DE CONSULTORIA DE GESTION', sector: 4, trade: 'CONSULTORES' },
  { ciiu: '8620', name: 'ACTIVIDADES DE MEDICOS Y ODONTOLOGOS', sector: 4, trade: 'CLINICA' },
  { ciiu: '8510', name: 'ENSEÑANZA PREPRIMARIA Y PRIMARIA', sector: 4, trade: 'ACADEMIA' },
  { ciiu: '0111', name: 'CULTIVO DE CEREALES (EXCEPTO ARROZ), LEGUMBRES Y SEMILLAS OLEAGINOSAS', sector: 1, trade: 'FINCA' },
  { ciiu: '0127', name: 'CULTIVO DE PLANTAS CON LAS QUE SE PREPARAN BEBIDAS', sector: 1, trade: 'FINCA' },
  { ciiu: '0141', name: 'CRIA DE GANADO BOVINO Y BUFALINO', sector: 1, trade: 'FINCA' },
  { ciiu: '1071', name: 'ELABORACION DE PRODUCTOS DE PANADERIA', sector: 2, trade: 'PANADERIA' },
  { ciiu: '1410', name: 'FABRICACION DE PRENDAS DE VESTIR, EXCEPTO PRENDAS DE PIEL', sector: 2, trade: 'MAQUILA' },
  { ciiu: '1610', name: 'ASERRADO Y ACEPILLADURA DE MADERA', sector: 2, trade: 'ASERRADERO' },
  { ciiu: '4100', name: 'CONSTRUCCION DE EDIFICIOS', sector: 5, trade: 'CONSTRUCCIONES' },
  { ciiu: '4330', name: 'TERMINACION Y ACABADO DE EDIFICIOS', sector: 5, trade: 'ACABADOS' },
  { ciiu: '4923', name: 'TRANSPORTE DE CARGA POR CARRETERA', sector: 6, trade: 'TRANSPORTES' },
] as const;

export type EconomicActivity = (typeof ECONOMIC_ACTIVITIES)[number];

export const ECONOMIC_SECTORS: Readonly<Record<number, string>> = {
  1: 'AGRICULTURA, GANADERIA, SILVICULTURA Y PESCA',
  2: 'INDUSTRIA MANUFACTURERA',
  3: 'COMERCIO AL POR MAYOR Y AL POR MENOR',
  4: 'SERVICIOS',
  5: 'CONSTRUCCION',
  6: 'TRANSPORTE Y ALMACENAMIENTO',
};

/** SAT forms by obligation (domain notes, "Obligations and their SAT forms"). */
export const OBLIGATIONS = {
  ivaGeneral: { name: 'IVA GENERAL', period: 'MENSUAL', form: 'SAT-2237' },
  ivaPequeno: { name: 'IVA PEQUEÑO CONTRIBUYENTE', period: 'MENSUAL', form: 'SAT-2046' },
  ivaPequenoElectronico: { name: 'IVA REGIMEN ELECTRONICO DE PEQUEÑO CONTRIBUYENTE', period: 'MENSUAL', form: 'SAT-2241' },
  isrOpcionalMensual: { name: 'ISR OPCIONAL MENSUAL', period: 'MENSUAL', form: 'SAT-1311' },
  isrCapital: { name: 'ISR CAPITAL', period: 'MENSUAL', form: 'SAT-1321' },
  isrRetenciones: { name: 'ISR RETENCIONES', period: 'MENSUAL', form: 'SAT-1331' },
  ivaRetenciones: { name: 'IVA RETENCIONES (RETENIVA)', period: 'MENSUAL', form: 'SAT-2340' },
  isrTrimestral: { name: 'ISR TRIMESTRAL (UTILIDADES)', period: 'TRIMESTRAL', form: 'SAT-1361' },
  iso: { name: 'ISO (IMPUESTO DE SOLIDARIDAD)', period: 'TRIMESTRAL', form: 'SAT-1608' },
  isrAnual: { name: 'ISR ANUAL (LUCRATIVAS)', period: 'ANUAL', form: 'SAT-1411' },
  isrRelacionDependencia: { name: 'ISR RELACION DE DEPENDENCIA', period: 'ANUAL', form: 'SAT-1431' },
} as const;

export type ObligationKey = keyof typeof OBLIGATIONS;

/** Special traits the authority records, with the code the catalog source publishes. */
export const SPECIAL_TRAITS = [
  { code: 5, name: 'AGENTE DE RETENCION DEL IVA' },
  { code: 6, name: 'AGENTE DE RETENCION DEL ISR' },
  { code: 11, name: 'EXPORTADOR' },
  { code: 14, name: 'CONTRIBUYENTE ESPECIAL GRANDE' },
  { code: 15, name: 'CONTRIBUYENTE ESPECIAL MEDIANO' },
  { code: 21, name: 'EMISOR DE DOCUMENTOS TRIBUTARIOS ELECTRONICOS (FEL)' },
  { code: 23, name: 'CALIFICADO DECRETO 29-89 (MAQUILA)' },
] as const;

export const BRAND_WORDS = [
  'DOÑA', 'SABOR', 'CHAPIN', 'QUETZALITO', 'MAYAB', 'VOLCAN', 'SELVA', 'LAGO', 'JADE', 'CEIBA', 'NIM', 'UTZ', 'PATOJO', 'CHILERO',
] as const;

export const STREET_KINDS = ['AVENIDA', 'CALLE'] as const;
export const NEIGHBOURHOODS = ['BARRIO EL CENTRO', 'BARRIO SAN ANTONIO', 'COLONIA LAS FLORES', 'CANTON CENTRAL', 'ALDEA EL CARMEN', 'COLONIA EL MAESTRO'] as const;
