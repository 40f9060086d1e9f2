/**
 * Country names and ISO 3166-1 alpha-3 codes, for a did-you-mean on flags that take the
 * alpha-2 code (`--ships-to USA`, `--country Germany`: `US`, `DE`). English names come from
 * the ICU data Node carries (Intl.DisplayNames), with the short and old names people type
 * (UK, Holland, South Korea); the alpha-3 codes from the table below. Used only when a
 * value was already refused, so nothing here runs on a good run.
 */

/** Every assigned alpha-2 code followed by its alpha-3 code (ISO 3166-1). */
const ISO_PAIRS = [
  "ADAND AEARE AFAFG AGATG AIAIA ALALB AMARM AOAGO AQATA ARARG ASASM ATAUT AUAUS AWABW",
  "AXALA AZAZE BABIH BBBRB BDBGD BEBEL BFBFA BGBGR BHBHR BIBDI BJBEN BLBLM BMBMU BNBRN BOBOL",
  "BQBES BRBRA BSBHS BTBTN BVBVT BWBWA BYBLR BZBLZ CACAN CCCCK CDCOD CFCAF CGCOG CHCHE CICIV",
  "CKCOK CLCHL CMCMR CNCHN COCOL CRCRI CUCUB CVCPV CWCUW CXCXR CYCYP CZCZE DEDEU DJDJI DKDNK",
  "DMDMA DODOM DZDZA ECECU EEEST EGEGY EHESH ERERI ESESP ETETH FIFIN FJFJI FKFLK FMFSM FOFRO",
  "FRFRA GAGAB GBGBR GDGRD GEGEO GFGUF GGGGY GHGHA GIGIB GLGRL GMGMB GNGIN GPGLP GQGNQ GRGRC",
  "GSSGS GTGTM GUGUM GWGNB GYGUY HKHKG HMHMD HNHND HRHRV HTHTI HUHUN IDIDN IEIRL ILISR IMIMN",
  "ININD IOIOT IQIRQ IRIRN ISISL ITITA JEJEY JMJAM JOJOR JPJPN KEKEN KGKGZ KHKHM KIKIR KMCOM",
  "KNKNA KPPRK KRKOR KWKWT KYCYM KZKAZ LALAO LBLBN LCLCA LILIE LKLKA LRLBR LSLSO LTLTU LULUX",
  "LVLVA LYLBY MAMAR MCMCO MDMDA MEMNE MFMAF MGMDG MHMHL MKMKD MLMLI MMMMR MNMNG MOMAC MPMNP",
  "MQMTQ MRMRT MSMSR MTMLT MUMUS MVMDV MWMWI MXMEX MYMYS MZMOZ NANAM NCNCL NENER NFNFK NGNGA",
  "NINIC NLNLD NONOR NPNPL NRNRU NUNIU NZNZL OMOMN PAPAN PEPER PFPYF PGPNG PHPHL PKPAK PLPOL",
  "PMSPM PNPCN PRPRI PSPSE PTPRT PWPLW PYPRY QAQAT REREU ROROU RSSRB RURUS RWRWA SASAU SBSLB",
  "SCSYC SDSDN SESWE SGSGP SHSHN SISVN SJSJM SKSVK SLSLE SMSMR SNSEN SOSOM SRSUR SSSSD STSTP",
  "SVSLV SXSXM SYSYR SZSWZ TCTCA TDTCD TFATF TGTGO THTHA TJTJK TKTKL TLTLS TMTKM TNTUN TOTON",
  "TRTUR TTTTO TVTUV TWTWN TZTZA UAUKR UGUGA UMUMI USUSA UYURY UZUZB VAVAT VCVCT VEVEN VGVGB",
  "VIVIR VNVNM VUVUT WFWLF WSWSM YEYEM YTMYT ZAZAF ZMZMB ZWZWE",
].join(" ");

/** Names and words that are not the English short name ICU gives. */
const ALIASES: Readonly<Record<string, string>> = {
  usa: "US",
  america: "US",
  unitedstatesofamerica: "US",
  uk: "GB",
  britain: "GB",
  greatbritain: "GB",
  england: "GB",
  scotland: "GB",
  wales: "GB",
  northernireland: "GB",
  holland: "NL",
  thenetherlands: "NL",
  korea: "KR",
  southkorea: "KR",
  northkorea: "KP",
  russia: "RU",
  czechrepublic: "CZ",
  turkey: "TR",
  ivorycoast: "CI",
  vietnam: "VN",
  swaziland: "SZ",
  burma: "MM",
  macedonia: "MK",
  uae: "AE",
};

/** Letters only, lower case, accents dropped: "Côte d’Ivoire" is "cotedivoire". */
const squash = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^a-z]/g, "");

let byWord: Map<string, string> | undefined;

function words(): Map<string, string> {
  if (byWord) return byWord;
  const map = new Map<string, string>();
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames(["en"], { type: "region" });
  } catch {
    names = undefined;
  }
  for (const pair of ISO_PAIRS.split(" ")) {
    const alpha2 = pair.slice(0, 2);
    map.set(pair.slice(2).toLowerCase(), alpha2);
    const name = names?.of(alpha2);
    if (name && name !== alpha2) map.set(squash(name), alpha2);
  }
  for (const [word, code] of Object.entries(ALIASES)) map.set(word, code);
  byWord = map;
  return map;
}

/**
 * The alpha-2 code a country's name or alpha-3 code stands for (`USA`, `Germany`,
 * `united kingdom`; with a subdivision, `USA-CA` is `US-CA`), or undefined.
 */
export function countryCode(typed: string): string | undefined {
  const m = /^(.*?)(?:-([A-Za-z0-9]{1,3}))?$/.exec(typed.trim());
  const code = words().get(squash(m?.[1] ?? ""));
  if (!code) return undefined;
  return m?.[2] ? `${code}-${m[2].toUpperCase()}` : code;
}
