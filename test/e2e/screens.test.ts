/**
 * What a reader sees at a terminal: every card and every list rendered by the real
 * command against the sandbox at 60, 80, 120 and 200 columns. The snapshots are the
 * review copy of each layout; the checks under them hold at every width: no line wider
 * than the terminal (a URL longer than the room is the one thing left whole), no fact
 * said twice in a card, and ids whole at 60 columns.
 */
import { describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { visible } from "../helpers/terminal.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

/** The command's stdout at a terminal of `columns`, the sandbox's address made stable. */
async function screen(argv: readonly string[], columns: number): Promise<string> {
  const r = await cli.pep([...argv, "--no-pager"], { env: { ...KEY, NO_COLOR: "1" }, tty: true, columns });
  expect(r.code, r.err).toBe(0);
  const text = visible(r.out).split(cli.baseUrl).join("http://sandbox.test/v1");
  for (const line of text.split("\n")) {
    // A line may pass the width only to keep a URL whole.
    if (line.length > columns) expect(line, `wider than ${columns}`).toMatch(/https?:\/\/\S{20,}/);
  }
  return text;
}

describe("cards", () => {
  it("peptides get at 60 columns", async () => {
    expect(await screen(["peptides", "get", "brevritarin-81"], 60)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      ID                 brevritarin-81
      Also known as      Brevritarin-81 acetate, BRV-81, SBX-1012
      Classification     Peptide hormone analogue
      Categories         glp1-metabolic
      Research topics    Insulin sensitivity, Glucose homeostasis
      Evidence level     Insufficient evidence (insufficient)
      Studies cited      0 human studies, 4 preclinical studies, 5
                         secondary reports
      Regulatory status  experimental
      FDA status         Not approved

      Summary
        Brevritarin-81 is a synthetic sandbox peptide studied for
        insulin sensitivity, glucose homeostasis. The evidence is
        insufficient to draw conclusions.

      Evidence in humans
        Summary  not documented
        Studies  none

      Preclinical evidence (animal and laboratory)
        Summary  4 animal or laboratory source(s) cited; findings
                 may not apply to humans.
        Studies
          • Receptor binding assay of Brevritarin-81: implications
            for glucose homeostasis
            2013 · receptor binding assay · In vitro ·
            pmid-90001067
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Effects of Brevritarin-81 on insulin sensitivity in a
            rodent model
            2022 · animal study · Animal or lab ·
            doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in
            insulin sensitivity; the relevance to humans is
            unknown.
            https://doi.example/10.5555/sbx.2022.00172
          • Receptor binding assay of Brevritarin-81: implications
            for insulin sensitivity
            2021 · receptor binding assay · In vitro ·
            pmid-90005136
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications
            for insulin sensitivity
            2023 · receptor binding assay · In vitro ·
            doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report ·
          pmid-90000254
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report ·
          pmid-90001824
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2022 · systematic review · Secondary report ·
          pmid-90002593
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on
          glucose homeostasis
          2001 · systematic review · Secondary report ·
          doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81
          and glucose homeostasis; the relevance to humans is
          unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and
          Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report ·
          doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72
          and Brevritarin-81 and insulin sensitivity; the
          relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Mechanism
        Summary  Proposed to act on incretin-like receptors and
                 sirtuin-like enzymes; most mechanistic data come
                 from laboratory work.
        Targets  incretin-like receptors, sirtuin-like enzymes

      Chemical properties
        Sequence               Glu-Ile-Asp-Ile-His-Tyr-Phe-Leu-
                               Asp-Asn-Pro-Ser-His-Val-Glu-Cys-
                               Gln-Gln-Glu-Asp-Val-Met
        Sequence length        22
        Molecular formula      C115H169N29O40S2
        Molecular weight (Da)  2661.9

      Safety
        Summary                  No human safety data; animal and
                                 laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Regulatory status
        WADA status        Not listed (synthetic record)
        Availability       Research material only
        Development stage  not documented

      References
        All 9 are listed above.

      About this record
        Content reviewed  2023-12-22T00:00:00Z
        API URL
          http://sandbox.test/v1/peptides/brevritarin-81
        Disclaimer        Synthetic sandbox record for research
                          and education only; not medical advice.

      Research and education only: not medical advice, and not a
      recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides get at 80 columns", async () => {
    expect(await screen(["peptides", "get", "brevritarin-81"], 80)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      ID                 brevritarin-81
      Also known as      Brevritarin-81 acetate, BRV-81, SBX-1012
      Classification     Peptide hormone analogue
      Categories         glp1-metabolic
      Research topics    Insulin sensitivity, Glucose homeostasis
      Evidence level     Insufficient evidence (insufficient)
      Studies cited      0 human studies, 4 preclinical studies, 5 secondary reports
      Regulatory status  experimental
      FDA status         Not approved

      Summary
        Brevritarin-81 is a synthetic sandbox peptide studied for insulin sensitivity,
        glucose homeostasis. The evidence is insufficient to draw conclusions.

      Evidence in humans
        Summary  not documented
        Studies  none

      Preclinical evidence (animal and laboratory)
        Summary  4 animal or laboratory source(s) cited; findings may not apply to
                 humans.
        Studies
          • Receptor binding assay of Brevritarin-81: implications for glucose
            homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on glucose
            homeostasis.
            https://pubmed.example/90001067
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity;
            the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
          • Receptor binding assay of Brevritarin-81: implications for insulin
            sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on insulin
            sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin
            sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on insulin
            sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose
          homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and
          insulin sensitivity; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Mechanism
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes;
                 most mechanistic data come from laboratory work.
        Targets  incretin-like receptors, sirtuin-like enzymes

      Chemical properties
        Sequence               Glu-Ile-Asp-Ile-His-Tyr-Phe-Leu-Asp-Asn-Pro-Ser-His-
                               Val-Glu-Cys-Gln-Gln-Glu-Asp-Val-Met
        Sequence length        22
        Molecular formula      C115H169N29O40S2
        Molecular weight (Da)  2661.9

      Safety
        Summary                  No human safety data; animal and laboratory reports
                                 only.
        Reported adverse events  none
        Known interactions       not documented

      Regulatory status
        WADA status        Not listed (synthetic record)
        Availability       Research material only
        Development stage  not documented

      References
        All 9 are listed above.

      About this record
        Content reviewed  2023-12-22T00:00:00Z
        API URL           http://sandbox.test/v1/peptides/brevritarin-81
        Disclaimer        Synthetic sandbox record for research and education only;
                          not medical advice.

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
  });
  it("peptides get at 120 columns", async () => {
    expect(await screen(["peptides", "get", "brevritarin-81"], 120)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      ID                 brevritarin-81
      Also known as      Brevritarin-81 acetate, BRV-81, SBX-1012
      Classification     Peptide hormone analogue
      Categories         glp1-metabolic
      Research topics    Insulin sensitivity, Glucose homeostasis
      Evidence level     Insufficient evidence (insufficient)
      Studies cited      0 human studies, 4 preclinical studies, 5 secondary reports
      Regulatory status  experimental
      FDA status         Not approved

      Summary
        Brevritarin-81 is a synthetic sandbox peptide studied for insulin sensitivity, glucose homeostasis. The evidence is
        insufficient to draw conclusions.

      Evidence in humans
        Summary  not documented
        Studies  none

      Preclinical evidence (animal and laboratory)
        Summary  4 animal or laboratory source(s) cited; findings may not apply to humans.
        Studies
          • Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity; the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and insulin sensitivity; the relevance to
          humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Mechanism
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes; most mechanistic data come from
                 laboratory work.
        Targets  incretin-like receptors, sirtuin-like enzymes

      Chemical properties
        Sequence               Glu-Ile-Asp-Ile-His-Tyr-Phe-Leu-Asp-Asn-Pro-Ser-His-Val-Glu-Cys-Gln-Gln-Glu-Asp-Val-Met
        Sequence length        22
        Molecular formula      C115H169N29O40S2
        Molecular weight (Da)  2661.9

      Safety
        Summary                  No human safety data; animal and laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Regulatory status
        WADA status        Not listed (synthetic record)
        Availability       Research material only
        Development stage  not documented

      References
        All 9 are listed above.

      About this record
        Content reviewed  2023-12-22T00:00:00Z
        API URL           http://sandbox.test/v1/peptides/brevritarin-81
        Disclaimer        Synthetic sandbox record for research and education only; not medical advice.

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides get at 200 columns", async () => {
    expect(await screen(["peptides", "get", "brevritarin-81"], 200)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      ID                 brevritarin-81
      Also known as      Brevritarin-81 acetate, BRV-81, SBX-1012
      Classification     Peptide hormone analogue
      Categories         glp1-metabolic
      Research topics    Insulin sensitivity, Glucose homeostasis
      Evidence level     Insufficient evidence (insufficient)
      Studies cited      0 human studies, 4 preclinical studies, 5 secondary reports
      Regulatory status  experimental
      FDA status         Not approved

      Summary
        Brevritarin-81 is a synthetic sandbox peptide studied for insulin sensitivity, glucose homeostasis. The evidence is insufficient to draw conclusions.

      Evidence in humans
        Summary  not documented
        Studies  none

      Preclinical evidence (animal and laboratory)
        Summary  4 animal or laboratory source(s) cited; findings may not apply to humans.
        Studies
          • Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity; the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Mechanism
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes; most mechanistic data come from laboratory work.
        Targets  incretin-like receptors, sirtuin-like enzymes

      Chemical properties
        Sequence               Glu-Ile-Asp-Ile-His-Tyr-Phe-Leu-Asp-Asn-Pro-Ser-His-Val-Glu-Cys-Gln-Gln-Glu-Asp-Val-Met
        Sequence length        22
        Molecular formula      C115H169N29O40S2
        Molecular weight (Da)  2661.9

      Safety
        Summary                  No human safety data; animal and laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Regulatory status
        WADA status        Not listed (synthetic record)
        Availability       Research material only
        Development stage  not documented

      References
        All 9 are listed above.

      About this record
        Content reviewed  2023-12-22T00:00:00Z
        API URL           http://sandbox.test/v1/peptides/brevritarin-81
        Disclaimer        Synthetic sandbox record for research and education only; not medical advice.

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides research at 60 columns", async () => {
    expect(await screen(["peptides", "research", "brevritarin-81"], 60)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID      brevritarin-81
      Evidence level  insufficient

      Mechanisms under investigation
        Targets  incretin-like receptors, sirtuin-like enzymes
        Summary  Proposed to act on incretin-like receptors and
                 sirtuin-like enzymes; most mechanistic data come
                 from laboratory work.

      Clinical evidence (humans)
        Summary              not documented
        Human trials         none
        Other human studies  none

      Preclinical evidence (animal and laboratory)
        Summary  Animal and laboratory findings; they may not
                 apply to humans.
        Animal studies
          • Effects of Brevritarin-81 on insulin sensitivity in a
            rodent model
            2022 · animal study · Animal or lab ·
            doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in
            insulin sensitivity; the relevance to humans is
            unknown.
            https://doi.example/10.5555/sbx.2022.00172
        In vitro studies
          • Receptor binding assay of Brevritarin-81: implications
            for glucose homeostasis
            2013 · receptor binding assay · In vitro ·
            pmid-90001067
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Receptor binding assay of Brevritarin-81: implications
            for insulin sensitivity
            2021 · receptor binding assay · In vitro ·
            pmid-90005136
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications
            for insulin sensitivity
            2023 · receptor binding assay · In vitro ·
            doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81
            bound its proposed target in vitro; binding alone does
            not show an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report ·
          pmid-90000254
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report ·
          pmid-90001824
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on
          insulin sensitivity
          2022 · systematic review · Secondary report ·
          pmid-90002593
          A systematic review of animal studies of Brevritarin-81
          and insulin sensitivity; the relevance to humans is
          unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on
          glucose homeostasis
          2001 · systematic review · Secondary report ·
          doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81
          and glucose homeostasis; the relevance to humans is
          unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and
          Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report ·
          doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72
          and Brevritarin-81 and insulin sensitivity; the
          relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Safety
        Summary                  No human safety data; animal and
                                 laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Limitations
        • Few studies were independently replicated.
        • Long-term follow-up is missing.
        • Several sources are secondary reports rather than
          primary data.

      Research gaps
        • No long-term controlled human trials.
        • No data in older adults.
        • Interactions with other compounds not studied.

      References
        All 9 are listed above.

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a
      recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides research at 80 columns", async () => {
    expect(await screen(["peptides", "research", "brevritarin-81"], 80)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID      brevritarin-81
      Evidence level  insufficient

      Mechanisms under investigation
        Targets  incretin-like receptors, sirtuin-like enzymes
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes;
                 most mechanistic data come from laboratory work.

      Clinical evidence (humans)
        Summary              not documented
        Human trials         none
        Other human studies  none

      Preclinical evidence (animal and laboratory)
        Summary  Animal and laboratory findings; they may not apply to humans.
        Animal studies
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity;
            the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
        In vitro studies
          • Receptor binding assay of Brevritarin-81: implications for glucose
            homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on glucose
            homeostasis.
            https://pubmed.example/90001067
          • Receptor binding assay of Brevritarin-81: implications for insulin
            sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on insulin
            sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin
            sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed
            target in vitro; binding alone does not show an effect on insulin
            sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin
          sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose
          homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on
          insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and
          insulin sensitivity; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Safety
        Summary                  No human safety data; animal and laboratory reports
                                 only.
        Reported adverse events  none
        Known interactions       not documented

      Limitations
        • Few studies were independently replicated.
        • Long-term follow-up is missing.
        • Several sources are secondary reports rather than primary data.

      Research gaps
        • No long-term controlled human trials.
        • No data in older adults.
        • Interactions with other compounds not studied.

      References
        All 9 are listed above.

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
  });
  it("peptides research at 120 columns", async () => {
    expect(await screen(["peptides", "research", "brevritarin-81"], 120)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID      brevritarin-81
      Evidence level  insufficient

      Mechanisms under investigation
        Targets  incretin-like receptors, sirtuin-like enzymes
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes; most mechanistic data come from
                 laboratory work.

      Clinical evidence (humans)
        Summary              not documented
        Human trials         none
        Other human studies  none

      Preclinical evidence (animal and laboratory)
        Summary  Animal and laboratory findings; they may not apply to humans.
        Animal studies
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity; the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
        In vitro studies
          • Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show
            an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and insulin sensitivity; the relevance to
          humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Safety
        Summary                  No human safety data; animal and laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Limitations
        • Few studies were independently replicated.
        • Long-term follow-up is missing.
        • Several sources are secondary reports rather than primary data.

      Research gaps
        • No long-term controlled human trials.
        • No data in older adults.
        • Interactions with other compounds not studied.

      References
        All 9 are listed above.

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides research at 200 columns", async () => {
    expect(await screen(["peptides", "research", "brevritarin-81"], 200)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID      brevritarin-81
      Evidence level  insufficient

      Mechanisms under investigation
        Targets  incretin-like receptors, sirtuin-like enzymes
        Summary  Proposed to act on incretin-like receptors and sirtuin-like enzymes; most mechanistic data come from laboratory work.

      Clinical evidence (humans)
        Summary              not documented
        Human trials         none
        Other human studies  none

      Preclinical evidence (animal and laboratory)
        Summary  Animal and laboratory findings; they may not apply to humans.
        Animal studies
          • Effects of Brevritarin-81 on insulin sensitivity in a rodent model
            2022 · animal study · Animal or lab · doi-10.5555--sbx.2022.00172
            Animals exposed to Brevritarin-81 showed changes in insulin sensitivity; the relevance to humans is unknown.
            https://doi.example/10.5555/sbx.2022.00172
        In vitro studies
          • Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
            2013 · receptor binding assay · In vitro · pmid-90001067
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on glucose homeostasis.
            https://pubmed.example/90001067
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2021 · receptor binding assay · In vitro · pmid-90005136
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on insulin sensitivity.
            https://pubmed.example/90005136
          • Receptor binding assay of Brevritarin-81: implications for insulin sensitivity
            2023 · receptor binding assay · In vitro · doi-10.5555--sbx.2023.00292
            A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on insulin sensitivity.
            https://doi.example/10.5555/sbx.2023.00292

      Secondary reports
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90000254
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90000254
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · pmid-90001824
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90001824
        • Systematic review of animal studies of Brevritarin-81 on insulin sensitivity
          2022 · systematic review · Secondary report · pmid-90002593
          A systematic review of animal studies of Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://pubmed.example/90002593
        • Systematic review of animal studies of Brevritarin-81 on glucose homeostasis
          2001 · systematic review · Secondary report · doi-10.5555--sbx.2001.00212
          A systematic review of animal studies of Brevritarin-81 and glucose homeostasis; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2001.00212
        • Systematic review of animal studies of Drovoxide-72 and Brevritarin-81 on insulin sensitivity
          2010 · systematic review · Secondary report · doi-10.5555--sbx.2010.00040
          A systematic review of animal studies of Drovoxide-72 and Brevritarin-81 and insulin sensitivity; the relevance to humans is unknown.
          https://doi.example/10.5555/sbx.2010.00040

      Safety
        Summary                  No human safety data; animal and laboratory reports only.
        Reported adverse events  none
        Known interactions       not documented

      Limitations
        • Few studies were independently replicated.
        • Long-term follow-up is missing.
        • Several sources are secondary reports rather than primary data.

      Research gaps
        • No long-term controlled human trials.
        • No data in older adults.
        • Interactions with other compounds not studied.

      References
        All 9 are listed above.

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides regulatory at 60 columns", async () => {
    expect(await screen(["peptides", "regulatory", "brevritarin-81"], 60)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID         brevritarin-81
      Regulatory status  experimental
      FDA status         Not approved
      WADA status        Not listed (synthetic record)
      Availability       Research material only
      Development stage  not documented

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a
      recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides regulatory at 80 columns", async () => {
    expect(await screen(["peptides", "regulatory", "brevritarin-81"], 80)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID         brevritarin-81
      Regulatory status  experimental
      FDA status         Not approved
      WADA status        Not listed (synthetic record)
      Availability       Research material only
      Development stage  not documented

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
  });
  it("peptides regulatory at 120 columns", async () => {
    expect(await screen(["peptides", "regulatory", "brevritarin-81"], 120)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID         brevritarin-81
      Regulatory status  experimental
      FDA status         Not approved
      WADA status        Not listed (synthetic record)
      Availability       Research material only
      Development stage  not documented

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("peptides regulatory at 200 columns", async () => {
    expect(await screen(["peptides", "regulatory", "brevritarin-81"], 200)).toMatchInlineSnapshot(`
      "Brevritarin-81
      https://research.example/peptides/brevritarin-81

      Peptide ID         brevritarin-81
      Regulatory status  experimental
      FDA status         Not approved
      WADA status        Not listed (synthetic record)
      Availability       Research material only
      Development stage  not documented

      About this record
        Reviewed at  2023-12-22T00:00:00Z

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("studies get at 60 columns", async () => {
    expect(await screen(["studies", "get", "pmid-90001067"], 60)).toMatchInlineSnapshot(`
      "Receptor binding assay of Brevritarin-81: implications for
      glucose homeostasis
      https://research.example/studies/pmid-90001067

      Authors         O'Briain, Anna; Schäfer, Rafael; O'Briain,
                      François; Søndergaard, Tomás
      Journal         Sandbox Clinical Investigations
      Year            2013
      Study type      receptor binding assay
      Research model  in vitro
      Evidence class  In vitro

      Finding
        A receptor binding assay found that Brevritarin-81 bound
        its proposed target in vitro; binding alone does not show
        an effect on glucose homeostasis.

      Identifiers
        ID          pmid-90001067
        PMID        90001067
        DOI         10.5555/sbx.2013.00052
        NCT ID      none
        Source URL  https://pubmed.example/90001067

      Cited by
        • Brevritarin-81 (brevritarin-81): Insufficient evidence
          (insufficient)

      About this record
        API URL  http://sandbox.test/v1/studies/pmid-90001067

      Research and education only: not medical advice, and not a
      recommendation to buy or use any substance.
      "
    `);
  });
  it("studies get at 80 columns", async () => {
    expect(await screen(["studies", "get", "pmid-90001067"], 80)).toMatchInlineSnapshot(`
      "Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
      https://research.example/studies/pmid-90001067

      Authors         O'Briain, Anna; Schäfer, Rafael; O'Briain, François;
                      Søndergaard, Tomás
      Journal         Sandbox Clinical Investigations
      Year            2013
      Study type      receptor binding assay
      Research model  in vitro
      Evidence class  In vitro

      Finding
        A receptor binding assay found that Brevritarin-81 bound its proposed target
        in vitro; binding alone does not show an effect on glucose homeostasis.

      Identifiers
        ID          pmid-90001067
        PMID        90001067
        DOI         10.5555/sbx.2013.00052
        NCT ID      none
        Source URL  https://pubmed.example/90001067

      Cited by
        • Brevritarin-81 (brevritarin-81): Insufficient evidence (insufficient)

      About this record
        API URL  http://sandbox.test/v1/studies/pmid-90001067

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
  });
  it("studies get at 120 columns", async () => {
    expect(await screen(["studies", "get", "pmid-90001067"], 120)).toMatchInlineSnapshot(`
      "Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
      https://research.example/studies/pmid-90001067

      Authors         O'Briain, Anna; Schäfer, Rafael; O'Briain, François; Søndergaard, Tomás
      Journal         Sandbox Clinical Investigations
      Year            2013
      Study type      receptor binding assay
      Research model  in vitro
      Evidence class  In vitro

      Finding
        A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an
        effect on glucose homeostasis.

      Identifiers
        ID          pmid-90001067
        PMID        90001067
        DOI         10.5555/sbx.2013.00052
        NCT ID      none
        Source URL  https://pubmed.example/90001067

      Cited by
        • Brevritarin-81 (brevritarin-81): Insufficient evidence (insufficient)

      About this record
        API URL  http://sandbox.test/v1/studies/pmid-90001067

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("studies get at 200 columns", async () => {
    expect(await screen(["studies", "get", "pmid-90001067"], 200)).toMatchInlineSnapshot(`
      "Receptor binding assay of Brevritarin-81: implications for glucose homeostasis
      https://research.example/studies/pmid-90001067

      Authors         O'Briain, Anna; Schäfer, Rafael; O'Briain, François; Søndergaard, Tomás
      Journal         Sandbox Clinical Investigations
      Year            2013
      Study type      receptor binding assay
      Research model  in vitro
      Evidence class  In vitro

      Finding
        A receptor binding assay found that Brevritarin-81 bound its proposed target in vitro; binding alone does not show an effect on glucose homeostasis.

      Identifiers
        ID          pmid-90001067
        PMID        90001067
        DOI         10.5555/sbx.2013.00052
        NCT ID      none
        Source URL  https://pubmed.example/90001067

      Cited by
        • Brevritarin-81 (brevritarin-81): Insufficient evidence (insufficient)

      About this record
        API URL  http://sandbox.test/v1/studies/pmid-90001067

      Research and education only: not medical advice, and not a recommendation to buy or use any substance.
      "
    `);
  });
  it("vendors get at 60 columns", async () => {
    expect(await screen(["vendors", "get", "vnd_9a826af2"], 60)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID                  vnd_9a826af2
      Slug                neskax-research-materials
      Aliases             Neskax
      Location            NL, Europe (source: vendor site, checked
                          2025-05-28,
                          https://neskax-research-materials.example/about)
      Rating              5 average from 309 reviews (168
                          verified, 141 not verified) (source:
                          moderated reviews, checked 2025-05-28,
                          https://research.example/vendors/neskax-research-materials#reviews)
      Website URL
        https://neskax-research-materials.example/
      Product categories  peptides, capsules, other

      About
        Neskax Research Materials is a synthetic sandbox vendor
        based in NL, listed for directory testing only.

      Catalog
        Product count    8
        Peptide count    8
        Last checked at  2025-05-28T00:00:00Z
        Source           catalog crawl, checked 2025-05-28,
                         https://neskax-research-materials.example/

      Shipping
        Coverage          worldwide
        Destinations      none
        Exclusions        IR, US-AK
        Free shipping
          Available  no
          Threshold  unknown
        Returns accepted  yes
        Source            vendor site, checked 2025-05-26,
                          https://neskax-research-materials.example/

      About this record
        API URL   http://sandbox.test/v1/vendors/vnd_9a826af2
        Logo URL
          https://neskax-research-materials.example/logo.svg

      Links to vendors may be affiliate links: the site may earn a
      commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors get at 80 columns", async () => {
    expect(await screen(["vendors", "get", "vnd_9a826af2"], 80)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID                  vnd_9a826af2
      Slug                neskax-research-materials
      Aliases             Neskax
      Location            NL, Europe (source: vendor site, checked 2025-05-28,
                          https://neskax-research-materials.example/about)
      Rating              5 average from 309 reviews (168 verified, 141 not verified)
                          (source: moderated reviews, checked 2025-05-28,
                          https://research.example/vendors/neskax-research-materials#reviews)
      Website URL         https://neskax-research-materials.example/
      Product categories  peptides, capsules, other

      About
        Neskax Research Materials is a synthetic sandbox vendor based in NL, listed
        for directory testing only.

      Catalog
        Product count    8
        Peptide count    8
        Last checked at  2025-05-28T00:00:00Z
        Source           catalog crawl, checked 2025-05-28,
                         https://neskax-research-materials.example/

      Shipping
        Coverage          worldwide
        Destinations      none
        Exclusions        IR, US-AK
        Free shipping
          Available  no
          Threshold  unknown
        Returns accepted  yes
        Source            vendor site, checked 2025-05-26,
                          https://neskax-research-materials.example/

      About this record
        API URL   http://sandbox.test/v1/vendors/vnd_9a826af2
        Logo URL  https://neskax-research-materials.example/logo.svg

      Links to vendors may be affiliate links: the site may earn a commission.
      Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors get at 120 columns", async () => {
    expect(await screen(["vendors", "get", "vnd_9a826af2"], 120)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID                  vnd_9a826af2
      Slug                neskax-research-materials
      Aliases             Neskax
      Location            NL, Europe (source: vendor site, checked 2025-05-28,
                          https://neskax-research-materials.example/about)
      Rating              5 average from 309 reviews (168 verified, 141 not verified) (source: moderated reviews, checked
                          2025-05-28, https://research.example/vendors/neskax-research-materials#reviews)
      Website URL         https://neskax-research-materials.example/
      Product categories  peptides, capsules, other

      About
        Neskax Research Materials is a synthetic sandbox vendor based in NL, listed for directory testing only.

      Catalog
        Product count    8
        Peptide count    8
        Last checked at  2025-05-28T00:00:00Z
        Source           catalog crawl, checked 2025-05-28, https://neskax-research-materials.example/

      Shipping
        Coverage          worldwide
        Destinations      none
        Exclusions        IR, US-AK
        Free shipping
          Available  no
          Threshold  unknown
        Returns accepted  yes
        Source            vendor site, checked 2025-05-26, https://neskax-research-materials.example/

      About this record
        API URL   http://sandbox.test/v1/vendors/vnd_9a826af2
        Logo URL  https://neskax-research-materials.example/logo.svg

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors get at 200 columns", async () => {
    expect(await screen(["vendors", "get", "vnd_9a826af2"], 200)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID                  vnd_9a826af2
      Slug                neskax-research-materials
      Aliases             Neskax
      Location            NL, Europe (source: vendor site, checked 2025-05-28, https://neskax-research-materials.example/about)
      Rating              5 average from 309 reviews (168 verified, 141 not verified) (source: moderated reviews, checked 2025-05-28, https://research.example/vendors/neskax-research-materials#reviews)
      Website URL         https://neskax-research-materials.example/
      Product categories  peptides, capsules, other

      About
        Neskax Research Materials is a synthetic sandbox vendor based in NL, listed for directory testing only.

      Catalog
        Product count    8
        Peptide count    8
        Last checked at  2025-05-28T00:00:00Z
        Source           catalog crawl, checked 2025-05-28, https://neskax-research-materials.example/

      Shipping
        Coverage          worldwide
        Destinations      none
        Exclusions        IR, US-AK
        Free shipping
          Available  no
          Threshold  unknown
        Returns accepted  yes
        Source            vendor site, checked 2025-05-26, https://neskax-research-materials.example/

      About this record
        API URL   http://sandbox.test/v1/vendors/vnd_9a826af2
        Logo URL  https://neskax-research-materials.example/logo.svg

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors shipping at 60 columns", async () => {
    expect(await screen(["vendors", "shipping", "vnd_9a826af2"], 60)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID           vnd_9a826af2
      Slug         neskax-research-materials
      Website URL  https://neskax-research-materials.example/

      Destinations
        Coverage   worldwide
        Countries  none

      Exclusions
        IR, US-AK

      Methods
        NAME             CARRIER          ESTIMATED DAYS
        Express          Sandbox Courier  2-3
        Tracked economy  unknown          unknown
        Standard         Example Post     5-8

      Free shipping
        Available  no
        Threshold  unknown

      Returns
        Accepted       yes
        Window (days)  14
        Conditions     unknown

      Sources
        • destinations, exclusions, methods, free shipping: vendor
          site, checked 2025-05-26,
          https://neskax-research-materials.example/shipping
        • returns: vendor site, checked 2025-05-26,
          https://neskax-research-materials.example/returns

      Links to vendors may be affiliate links: the site may earn a
      commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors shipping at 80 columns", async () => {
    expect(await screen(["vendors", "shipping", "vnd_9a826af2"], 80)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID           vnd_9a826af2
      Slug         neskax-research-materials
      Website URL  https://neskax-research-materials.example/

      Destinations
        Coverage   worldwide
        Countries  none

      Exclusions
        IR, US-AK

      Methods
        NAME             CARRIER          ESTIMATED DAYS
        Express          Sandbox Courier  2-3
        Tracked economy  unknown          unknown
        Standard         Example Post     5-8

      Free shipping
        Available  no
        Threshold  unknown

      Returns
        Accepted       yes
        Window (days)  14
        Conditions     unknown

      Sources
        • destinations, exclusions, methods, free shipping: vendor site, checked
          2025-05-26, https://neskax-research-materials.example/shipping
        • returns: vendor site, checked 2025-05-26,
          https://neskax-research-materials.example/returns

      Links to vendors may be affiliate links: the site may earn a commission.
      Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors shipping at 120 columns", async () => {
    expect(await screen(["vendors", "shipping", "vnd_9a826af2"], 120)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID           vnd_9a826af2
      Slug         neskax-research-materials
      Website URL  https://neskax-research-materials.example/

      Destinations
        Coverage   worldwide
        Countries  none

      Exclusions
        IR, US-AK

      Methods
        NAME             CARRIER          ESTIMATED DAYS
        Express          Sandbox Courier  2-3
        Tracked economy  unknown          unknown
        Standard         Example Post     5-8

      Free shipping
        Available  no
        Threshold  unknown

      Returns
        Accepted       yes
        Window (days)  14
        Conditions     unknown

      Sources
        • destinations, exclusions, methods, free shipping: vendor site, checked 2025-05-26,
          https://neskax-research-materials.example/shipping
        • returns: vendor site, checked 2025-05-26, https://neskax-research-materials.example/returns

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors shipping at 200 columns", async () => {
    expect(await screen(["vendors", "shipping", "vnd_9a826af2"], 200)).toMatchInlineSnapshot(`
      "Neskax Research Materials
      https://research.example/vendors/neskax-research-materials

      ID           vnd_9a826af2
      Slug         neskax-research-materials
      Website URL  https://neskax-research-materials.example/

      Destinations
        Coverage   worldwide
        Countries  none

      Exclusions
        IR, US-AK

      Methods
        NAME             CARRIER          ESTIMATED DAYS
        Express          Sandbox Courier  2-3
        Tracked economy  unknown          unknown
        Standard         Example Post     5-8

      Free shipping
        Available  no
        Threshold  unknown

      Returns
        Accepted       yes
        Window (days)  14
        Conditions     unknown

      Sources
        • destinations, exclusions, methods, free shipping: vendor site, checked 2025-05-26, https://neskax-research-materials.example/shipping
        • returns: vendor site, checked 2025-05-26, https://neskax-research-materials.example/returns

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors compare at 60 columns", async () => {
    expect(await screen(["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63"], 60)).toMatchInlineSnapshot(`
      "ID
        Neskax Research Materials  vnd_9a826af2
        Jorvax Supply              vnd_ef639d63
      Slug
        Neskax Research Materials  neskax-research-materials
        Jorvax Supply              jorvax-supply
      Country
        Neskax Research Materials  NL
        Jorvax Supply              AU
      Profile URL
        Neskax Research Materials
          https://research.example/vendors/neskax-research-materials
        Jorvax Supply
          https://research.example/vendors/jorvax-supply
      Website URL
        Neskax Research Materials
          https://neskax-research-materials.example/
        Jorvax Supply
          https://jorvax-supply.example/
      Rating average
        Neskax Research Materials  5
        Jorvax Supply              4.5
      Rating count
        Neskax Research Materials  309
        Jorvax Supply              379
      Rating verified count
        Neskax Research Materials  168
        Jorvax Supply              313
      Catalog product count
        Neskax Research Materials  8
        Jorvax Supply              6
      Catalog peptide count
        Neskax Research Materials  8
        Jorvax Supply              6
      Catalog last checked at
        Neskax Research Materials  2025-05-28T00:00:00Z
        Jorvax Supply              2025-05-30T00:00:00Z
      Product categories
        Neskax Research Materials  peptides, capsules, other
        Jorvax Supply              peptides, sprays, capsules
      Shipping destinations
        Neskax Research Materials  Coverage: worldwide; Countries:
                                   none (source: vendor site,
                                   checked 2025-05-26,
                                   https://neskax-research-materials.example/shipping)
        Jorvax Supply              unknown (source: vendor site,
                                   checked 2025-04-14,
                                   https://jorvax-supply.example/shipping)
      Shipping exclusions
        Neskax Research Materials  IR, US-AK (source: vendor site,
                                   checked 2025-05-26,
                                   https://neskax-research-materials.example/shipping)
        Jorvax Supply              unknown (source: vendor site,
                                   checked 2025-04-14,
                                   https://jorvax-supply.example/shipping)
      Shipping methods
        Neskax Research Materials  Express, Tracked economy,
                                   Standard (source: vendor site,
                                   checked 2025-05-26,
                                   https://neskax-research-materials.example/shipping)
        Jorvax Supply              Express, Tracked economy,
                                   Standard (source: vendor site,
                                   checked 2025-04-14,
                                   https://jorvax-supply.example/shipping)
      Shipping free shipping
        Neskax Research Materials  Available: no; Threshold:
                                   unknown (source: vendor site,
                                   checked 2025-05-26,
                                   https://neskax-research-materials.example/shipping)
        Jorvax Supply              Available: yes; Threshold:
                                   150.00 AUD (source: vendor
                                   site, checked 2025-04-14,
                                   https://jorvax-supply.example/shipping)
      Shipping returns
        Neskax Research Materials  Accepted: yes; Window (days):
                                   14; Conditions: unknown
                                   (source: vendor site, checked
                                   2025-05-26,
                                   https://neskax-research-materials.example/returns)
        Jorvax Supply              Accepted: yes; Window (days):
                                   30; Conditions: unknown
                                   (source: vendor site, checked
                                   2025-04-14,
                                   https://jorvax-supply.example/returns)

      Ships to  unknown

      Links to vendors may be affiliate links: the site may earn a
      commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors compare at 80 columns", async () => {
    expect(await screen(["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63"], 80)).toMatchInlineSnapshot(`
      "                         Neskax Research Materials    Jorvax Supply
      ID                       vnd_9a826af2                 vnd_ef639d63
      Slug                     neskax-research-materials    jorvax-supply
      Country                  NL                           AU
      Rating average           5                            4.5
      Rating count             309                          379
      Rating verified count    168                          313
      Catalog product count    8                            6
      Catalog peptide count    8                            6
      Catalog last checked at  2025-05-28T00:00:00Z         2025-05-30T00:00:00Z
      Product categories       peptides, capsules, other    peptides, sprays, capsules
      Shipping destinations    Coverage: worldwide; Count…  unknown (source: vendor s…
      Shipping exclusions      IR, US-AK (source: vendor …  unknown (source: vendor s…
      Shipping methods         Express, Tracked economy, …  Express, Tracked economy,…
      Shipping free shipping   Available: no; Threshold: …  Available: yes; Threshold…
      Shipping returns         Accepted: yes; Window (day…  Accepted: yes; Window (da…

      Profile URL
        Neskax Research Materials
          https://research.example/vendors/neskax-research-materials
        Jorvax Supply
          https://research.example/vendors/jorvax-supply
      Website URL
        Neskax Research Materials  https://neskax-research-materials.example/
        Jorvax Supply              https://jorvax-supply.example/

      Ships to  unknown

      Links to vendors may be affiliate links: the site may earn a commission.
      Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors compare at 120 columns", async () => {
    expect(await screen(["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63"], 120)).toMatchInlineSnapshot(`
      "                         Neskax Research Materials                        Jorvax Supply
      ID                       vnd_9a826af2                                     vnd_ef639d63
      Slug                     neskax-research-materials                        jorvax-supply
      Country                  NL                                               AU
      Website URL              https://neskax-research-materials.example/       https://jorvax-supply.example/
      Rating average           5                                                4.5
      Rating count             309                                              379
      Rating verified count    168                                              313
      Catalog product count    8                                                6
      Catalog peptide count    8                                                6
      Catalog last checked at  2025-05-28T00:00:00Z                             2025-05-30T00:00:00Z
      Product categories       peptides, capsules, other                        peptides, sprays, capsules
      Shipping destinations    Coverage: worldwide; Countries: none (source: …  unknown (source: vendor site, checked 2025-04…
      Shipping exclusions      IR, US-AK (source: vendor site, checked 2025-0…  unknown (source: vendor site, checked 2025-04…
      Shipping methods         Express, Tracked economy, Standard (source: ve…  Express, Tracked economy, Standard (source: v…
      Shipping free shipping   Available: no; Threshold: unknown (source: ven…  Available: yes; Threshold: 150.00 AUD (source…
      Shipping returns         Accepted: yes; Window (days): 14; Conditions: …  Accepted: yes; Window (days): 30; Conditions:…

      Profile URL
        Neskax Research Materials  https://research.example/vendors/neskax-research-materials
        Jorvax Supply              https://research.example/vendors/jorvax-supply

      Ships to  unknown

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors compare at 200 columns", async () => {
    expect(await screen(["vendors", "compare", "vnd_9a826af2", "vnd_ef639d63"], 200)).toMatchInlineSnapshot(`
      "                         Neskax Research Materials                                                                Jorvax Supply
      ID                       vnd_9a826af2                                                                             vnd_ef639d63
      Slug                     neskax-research-materials                                                                jorvax-supply
      Country                  NL                                                                                       AU
      Profile URL              https://research.example/vendors/neskax-research-materials                               https://research.example/vendors/jorvax-supply
      Website URL              https://neskax-research-materials.example/                                               https://jorvax-supply.example/
      Rating average           5                                                                                        4.5
      Rating count             309                                                                                      379
      Rating verified count    168                                                                                      313
      Catalog product count    8                                                                                        6
      Catalog peptide count    8                                                                                        6
      Catalog last checked at  2025-05-28T00:00:00Z                                                                     2025-05-30T00:00:00Z
      Product categories       peptides, capsules, other                                                                peptides, sprays, capsules
      Shipping destinations    Coverage: worldwide; Countries: none (source: vendor site, checked 2025-05-26, https:/…  unknown (source: vendor site, checked 2025-04-14, https://jorvax-supply.example/shipp…
      Shipping exclusions      IR, US-AK (source: vendor site, checked 2025-05-26, https://neskax-research-materials.…  unknown (source: vendor site, checked 2025-04-14, https://jorvax-supply.example/shipp…
      Shipping methods         Express, Tracked economy, Standard (source: vendor site, checked 2025-05-26, https://n…  Express, Tracked economy, Standard (source: vendor site, checked 2025-04-14, https://…
      Shipping free shipping   Available: no; Threshold: unknown (source: vendor site, checked 2025-05-26, https://ne…  Available: yes; Threshold: 150.00 AUD (source: vendor site, checked 2025-04-14, https…
      Shipping returns         Accepted: yes; Window (days): 14; Conditions: unknown (source: vendor site, checked 20…  Accepted: yes; Window (days): 30; Conditions: unknown (source: vendor site, checked 2…

      Ships to  unknown

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("index at 60 columns", async () => {
    expect(await screen(["index"], 60)).toMatchInlineSnapshot(`
      "Peptide research API (sandbox)

      API version        v1
      OpenAPI version    1.0.0
      Sandbox            yes
      Base URL           http://sandbox.test/v1
      Documentation URL  https://research.example/docs/api
      Notice             Synthetic data for testing clients; not
                         real research.

      Endpoints
        • Path          /
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /health
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /peptides
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /peptides/{slug}
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /peptides/{slug}/studies
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /peptides/{slug}/research
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /regulatory-status/{slug}
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /categories
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /research-areas
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /search
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /studies
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /studies/{id}
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /vendors
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     yes
        • Path          /vendors/compare
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /vendors/{id}
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /vendors/{id}/shipping
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /prices
          Method        GET
          Scope         pricing:read
          Key required  yes
          Metered       yes
          Paginated     yes
        • Path          /products
          Method        GET
          Scope         products:read
          Key required  yes
          Metered       yes
          Paginated     yes
      "
    `);
  });
  it("index at 80 columns", async () => {
    expect(await screen(["index"], 80)).toMatchInlineSnapshot(`
      "Peptide research API (sandbox)

      API version        v1
      OpenAPI version    1.0.0
      Sandbox            yes
      Base URL           http://sandbox.test/v1
      Documentation URL  https://research.example/docs/api
      Notice             Synthetic data for testing clients; not real research.

      Endpoints
        • Path          /
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /health
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /peptides
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /peptides/{slug}
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /peptides/{slug}/studies
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /peptides/{slug}/research
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /regulatory-status/{slug}
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /categories
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /research-areas
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /search
          Method        GET
          Scope         research:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /studies
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     yes
        • Path          /studies/{id}
          Method        GET
          Scope         studies:read
          Key required  no
          Metered       no
          Paginated     no
        • Path          /vendors
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     yes
        • Path          /vendors/compare
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /vendors/{id}
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /vendors/{id}/shipping
          Method        GET
          Scope         vendors:read
          Key required  yes
          Metered       yes
          Paginated     no
        • Path          /prices
          Method        GET
          Scope         pricing:read
          Key required  yes
          Metered       yes
          Paginated     yes
        • Path          /products
          Method        GET
          Scope         products:read
          Key required  yes
          Metered       yes
          Paginated     yes
      "
    `);
  });
  it("index at 120 columns", async () => {
    expect(await screen(["index"], 120)).toMatchInlineSnapshot(`
      "Peptide research API (sandbox)

      API version        v1
      OpenAPI version    1.0.0
      Sandbox            yes
      Base URL           http://sandbox.test/v1
      Documentation URL  https://research.example/docs/api
      Notice             Synthetic data for testing clients; not real research.

      Endpoints
        PATH                       METHOD  SCOPE          KEY REQUIRED  METERED  PAGINATED
        /                          GET     research:read  no            no       no
        /health                    GET     research:read  no            no       no
        /peptides                  GET     research:read  no            no       yes
        /peptides/{slug}           GET     research:read  no            no       no
        /peptides/{slug}/studies   GET     studies:read   no            no       yes
        /peptides/{slug}/research  GET     research:read  no            no       no
        /regulatory-status/{slug}  GET     research:read  no            no       no
        /categories                GET     research:read  no            no       yes
        /research-areas            GET     research:read  no            no       yes
        /search                    GET     research:read  no            no       no
        /studies                   GET     studies:read   no            no       yes
        /studies/{id}              GET     studies:read   no            no       no
        /vendors                   GET     vendors:read   yes           yes      yes
        /vendors/compare           GET     vendors:read   yes           yes      no
        /vendors/{id}              GET     vendors:read   yes           yes      no
        /vendors/{id}/shipping     GET     vendors:read   yes           yes      no
        /prices                    GET     pricing:read   yes           yes      yes
        /products                  GET     products:read  yes           yes      yes
      "
    `);
  });
  it("index at 200 columns", async () => {
    expect(await screen(["index"], 200)).toMatchInlineSnapshot(`
      "Peptide research API (sandbox)

      API version        v1
      OpenAPI version    1.0.0
      Sandbox            yes
      Base URL           http://sandbox.test/v1
      Documentation URL  https://research.example/docs/api
      Notice             Synthetic data for testing clients; not real research.

      Endpoints
        PATH                       METHOD  SCOPE          KEY REQUIRED  METERED  PAGINATED
        /                          GET     research:read  no            no       no
        /health                    GET     research:read  no            no       no
        /peptides                  GET     research:read  no            no       yes
        /peptides/{slug}           GET     research:read  no            no       no
        /peptides/{slug}/studies   GET     studies:read   no            no       yes
        /peptides/{slug}/research  GET     research:read  no            no       no
        /regulatory-status/{slug}  GET     research:read  no            no       no
        /categories                GET     research:read  no            no       yes
        /research-areas            GET     research:read  no            no       yes
        /search                    GET     research:read  no            no       no
        /studies                   GET     studies:read   no            no       yes
        /studies/{id}              GET     studies:read   no            no       no
        /vendors                   GET     vendors:read   yes           yes      yes
        /vendors/compare           GET     vendors:read   yes           yes      no
        /vendors/{id}              GET     vendors:read   yes           yes      no
        /vendors/{id}/shipping     GET     vendors:read   yes           yes      no
        /prices                    GET     pricing:read   yes           yes      yes
        /products                  GET     products:read  yes           yes      yes
      "
    `);
  });
  it("health at 60 columns", async () => {
    expect(await screen(["health"], 60)).toMatchInlineSnapshot(`
      "Status       ok
      Database     ok
      API version  v1
      Sandbox      yes
      Data as of   2025-06-01T00:00:00Z
      "
    `);
  });
  it("health at 80 columns", async () => {
    expect(await screen(["health"], 80)).toMatchInlineSnapshot(`
      "Status       ok
      Database     ok
      API version  v1
      Sandbox      yes
      Data as of   2025-06-01T00:00:00Z
      "
    `);
  });
  it("health at 120 columns", async () => {
    expect(await screen(["health"], 120)).toMatchInlineSnapshot(`
      "Status       ok
      Database     ok
      API version  v1
      Sandbox      yes
      Data as of   2025-06-01T00:00:00Z
      "
    `);
  });
  it("health at 200 columns", async () => {
    expect(await screen(["health"], 200)).toMatchInlineSnapshot(`
      "Status       ok
      Database     ok
      API version  v1
      Sandbox      yes
      Data as of   2025-06-01T00:00:00Z
      "
    `);
  });
});

describe("lists", () => {
  it("peptides list at 60 columns", async () => {
    expect(await screen(["peptides", "list", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "ID               NAME     CATEGO…  EVIDEN…  REGULA…  FDA
      brevritarin-81   Brevri…  glp1-m…  insuff…  experi…  Not ap…
      brevsotarin-28   Brevso…  muscle…  clinic…  invest…  Invest…
      caldtazamide-70  Caldta…  cosmet…  insuff…  insuff…  not do…
      dromitarin-15    Dromit…  experi…  limite…  experi…  Not ap…
      "
    `);
  });
  it("peptides list at 80 columns", async () => {
    expect(await screen(["peptides", "list", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "ID               NAME         CATEGORIES   EVIDENCE     REGULATORY   FDA
      brevritarin-81   Brevritari…  glp1-metab…  insufficie…  experiment…  Not approv…
      brevsotarin-28   Brevsotari…  muscle-rec…  clinical-t…  investigat…  Investigat…
      caldtazamide-70  Caldtazami…  cosmetic     insufficie…  insufficie…  not docume…
      dromitarin-15    Dromitarin…  experiment…  limited-hu…  experiment…  Not approv…
      "
    `);
  });
  it("peptides list at 120 columns", async () => {
    expect(await screen(["peptides", "list", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "ID               NAME             CATEGORIES                 EVIDENCE        REGULATORY       FDA
      brevritarin-81   Brevritarin-81   glp1-metabolic             insufficient    experimental     Not approved
      brevsotarin-28   Brevsotarin-28   muscle-recovery, longevi…  clinical-trial  investigational  Investigational; not appr…
      caldtazamide-70  Caldtazamide-70  cosmetic                   insufficient    insufficient     not documented
      dromitarin-15    Dromitarin-15    experimental, muscle-rec…  limited-human   experimental     Not approved
      "
    `);
  });
  it("peptides list at 200 columns", async () => {
    expect(await screen(["peptides", "list", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "ID               NAME             CATEGORIES                     EVIDENCE        REGULATORY       FDA
      brevritarin-81   Brevritarin-81   glp1-metabolic                 insufficient    experimental     Not approved
      brevsotarin-28   Brevsotarin-28   muscle-recovery, longevity     clinical-trial  investigational  Investigational; not approved
      caldtazamide-70  Caldtazamide-70  cosmetic                       insufficient    insufficient     not documented
      dromitarin-15    Dromitarin-15    experimental, muscle-recovery  limited-human   experimental     Not approved
      "
    `);
  });
  it("peptides studies at 60 columns", async () => {
    expect(await screen(["peptides", "studies", "brevritarin-81", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE               JOURNAL    EVIDENCE
      pmid-90000254  2010  Systematic review…  Example …  seconda…
      pmid-90001067  2013  Receptor binding …  Sandbox …  in_vitro
      pmid-90001824  2010  Systematic review…  Example …  seconda…
      pmid-90002593  2022  Systematic review…  Notes in…  seconda…
      "
    `);
  });
  it("peptides studies at 80 columns", async () => {
    expect(await screen(["peptides", "studies", "brevritarin-81", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                         JOURNAL         EVIDENCE
      pmid-90000254  2010  Systematic review of animal…  Example Repor…  secondary_re…
      pmid-90001067  2013  Receptor binding assay of B…  Sandbox Clini…  in_vitro
      pmid-90001824  2010  Systematic review of animal…  Example Repor…  secondary_re…
      pmid-90002593  2022  Systematic review of animal…  Notes in Illu…  secondary_re…
      "
    `);
  });
  it("peptides studies at 120 columns", async () => {
    expect(await screen(["peptides", "studies", "brevritarin-81", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                                                 JOURNAL                      EVIDENCE
      pmid-90000254  2010  Systematic review of animal studies of Brevritarin-…  Example Reports in Molecul…  secondary_report
      pmid-90001067  2013  Receptor binding assay of Brevritarin-81: implicati…  Sandbox Clinical Investiga…  in_vitro
      pmid-90001824  2010  Systematic review of animal studies of Brevritarin-…  Example Reports in Molecul…  secondary_report
      pmid-90002593  2022  Systematic review of animal studies of Brevritarin-…  Notes in Illustrative Cell…  secondary_report
      "
    `);
  });
  it("peptides studies at 200 columns", async () => {
    expect(await screen(["peptides", "studies", "brevritarin-81", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                                                                           JOURNAL                                  EVIDENCE
      pmid-90000254  2010  Systematic review of animal studies of Brevritarin-81 on insulin sensitivity    Example Reports in Molecular Physiology  secondary_report
      pmid-90001067  2013  Receptor binding assay of Brevritarin-81: implications for glucose homeostasis  Sandbox Clinical Investigations          in_vitro
      pmid-90001824  2010  Systematic review of animal studies of Brevritarin-81 on insulin sensitivity    Example Reports in Molecular Physiology  secondary_report
      pmid-90002593  2022  Systematic review of animal studies of Brevritarin-81 on insulin sensitivity    Notes in Illustrative Cell Science       secondary_report
      "
    `);
  });
  it("studies list at 60 columns", async () => {
    expect(await screen(["studies", "list", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE               JOURNAL    EVIDENCE
      pmid-90004048  2025  A randomized, pla…  Sandbox …  human_c…
      pmid-90001797  2025  Case series: slee…  Annals o…  human_s…
      pmid-90001036  2025  Double-blind, pla…  Annals o…  human_c…
      pmid-90004489  2025  Effects of Sullod…  Internat…  animal_…
      "
    `);
  });
  it("studies list at 80 columns", async () => {
    expect(await screen(["studies", "list", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                         JOURNAL         EVIDENCE
      pmid-90004048  2025  A randomized, placebo-contr…  Sandbox Clini…  human_contro…
      pmid-90001797  2025  Case series: sleep architec…  Annals of Syn…  human_study
      pmid-90001036  2025  Double-blind, placebo-contr…  Annals of Syn…  human_contro…
      pmid-90004489  2025  Effects of Sullodeplexin-10…  International…  animal_or_lab
      "
    `);
  });
  it("studies list at 120 columns", async () => {
    expect(await screen(["studies", "list", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                                             JOURNAL                    EVIDENCE
      pmid-90004048  2025  A randomized, placebo-controlled trial of Lunpl…  Sandbox Clinical Investi…  human_controlled_trial
      pmid-90001797  2025  Case series: sleep architecture findings in peo…  Annals of Synthetic Biol…  human_study
      pmid-90001036  2025  Double-blind, placebo-controlled study of Jaxvo…  Annals of Synthetic Biol…  human_controlled_trial
      pmid-90004489  2025  Effects of Sullodeplexin-10 on bone density in …  International Review of …  animal_or_lab
      "
    `);
  });
  it("studies list at 200 columns", async () => {
    expect(await screen(["studies", "list", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "ID             YEAR  TITLE                                                                                         JOURNAL                                           EVIDENCE
      pmid-90004048  2025  A randomized, placebo-controlled trial of Lunplexin-19 on muscle protein synthesis in adults  Sandbox Clinical Investigations                   human_controlled_trial
      pmid-90001797  2025  Case series: sleep architecture findings in people using Jaxvoxide-48                         Annals of Synthetic Biology (Sandbox Edition)     human_study
      pmid-90001036  2025  Double-blind, placebo-controlled study of Jaxvoxide-48 and neuroprotection                    Annals of Synthetic Biology (Sandbox Edition)     human_controlled_trial
      pmid-90004489  2025  Effects of Sullodeplexin-10 on bone density in a rodent model                                 International Review of Placeholder Pharmacology  animal_or_lab
      "
    `);
  });
  it("categories at 60 columns", async () => {
    expect(await screen(["categories", "--limit", "3"], 60)).toMatchInlineSnapshot(`
      "ID               NAME             COUNT  PEPTIDES
      fat-loss         Fat loss         8      Orunequelin-46, Qu…
      cognitive        Cognitive        10     Fenbeplexin-80, Gr…
      muscle-recovery  Muscle recovery  8      Brevsotarin-28, Dr…
      "
    `);
  });
  it("categories at 80 columns", async () => {
    expect(await screen(["categories", "--limit", "3"], 80)).toMatchInlineSnapshot(`
      "ID               NAME             COUNT  PEPTIDES
      fat-loss         Fat loss         8      Orunequelin-46, Quinquelin-54, Sullode…
      cognitive        Cognitive        10     Fenbeplexin-80, Grivvoxide-87, Holxopl…
      muscle-recovery  Muscle recovery  8      Brevsotarin-28, Dromitarin-15, Lunplex…
      "
    `);
  });
  it("categories at 120 columns", async () => {
    expect(await screen(["categories", "--limit", "3"], 120)).toMatchInlineSnapshot(`
      "ID               NAME             COUNT  PEPTIDES
      fat-loss         Fat loss         8      Orunequelin-46, Quinquelin-54, Sullodeplexin-10, Sulziquelin-19, Torrigatide-4…
      cognitive        Cognitive        10     Fenbeplexin-80, Grivvoxide-87, Holxoplexin-66, Lungaplexin-64, Lunplexin-79, P…
      muscle-recovery  Muscle recovery  8      Brevsotarin-28, Dromitarin-15, Lunplexin-19, Lunplexin-79, Sulmiplexin-62, Sul…
      "
    `);
  });
  it("categories at 200 columns", async () => {
    expect(await screen(["categories", "--limit", "3"], 200)).toMatchInlineSnapshot(`
      "ID               NAME             COUNT  PEPTIDES
      fat-loss         Fat loss         8      Orunequelin-46, Quinquelin-54, Sullodeplexin-10, Sulziquelin-19, Torrigatide-45, Tortide-51, Xanplexin-20, Xanvoxide-59
      cognitive        Cognitive        10     Fenbeplexin-80, Grivvoxide-87, Holxoplexin-66, Lungaplexin-64, Lunplexin-79, Paxquelin-37, Tortide-51, Xanmitide-29, Zorgaplexin-30, Zorquazamide-70
      muscle-recovery  Muscle recovery  8      Brevsotarin-28, Dromitarin-15, Lunplexin-19, Lunplexin-79, Sulmiplexin-62, Sultabedorin-5, Thalzitarin-13, Xanvoxide-59
      "
    `);
  });
  it("research-areas at 60 columns", async () => {
    expect(await screen(["research-areas", "--limit", "3"], 60)).toMatchInlineSnapshot(`
      "ID                      AREA           COUNT  PEPTIDES
      insulin-sensitivity     Insulin sens…  8      Orunequelin-4…
      sleep-architecture      Sleep archit…  7      Istlotide-90,…
      mitochondrial-function  Mitochondria…  7      Paxtide-38, Z…
      "
    `);
  });
  it("research-areas at 80 columns", async () => {
    expect(await screen(["research-areas", "--limit", "3"], 80)).toMatchInlineSnapshot(`
      "ID                      AREA                    COUNT  PEPTIDES
      insulin-sensitivity     Insulin sensitivity     8      Orunequelin-46, Tortide-…
      sleep-architecture      Sleep architecture      7      Istlotide-90, Zorquazami…
      mitochondrial-function  Mitochondrial function  7      Paxtide-38, Zorquazamide…
      "
    `);
  });
  it("research-areas at 120 columns", async () => {
    expect(await screen(["research-areas", "--limit", "3"], 120)).toMatchInlineSnapshot(`
      "ID                      AREA                    COUNT  PEPTIDES
      insulin-sensitivity     Insulin sensitivity     8      Orunequelin-46, Tortide-51, Brevritarin-81, Paxtide-38, Tortarin…
      sleep-architecture      Sleep architecture      7      Istlotide-90, Zorquazamide-70, Fenbeplexin-80, Grivvoxide-87, Ja…
      mitochondrial-function  Mitochondrial function  7      Paxtide-38, Zorquazamide-70, Sullodeplexin-10, Torrigatide-45, L…
      "
    `);
  });
  it("research-areas at 200 columns", async () => {
    expect(await screen(["research-areas", "--limit", "3"], 200)).toMatchInlineSnapshot(`
      "ID                      AREA                    COUNT  PEPTIDES
      insulin-sensitivity     Insulin sensitivity     8      Orunequelin-46, Tortide-51, Brevritarin-81, Paxtide-38, Tortarin-68, Xantarin-44, Drovoxide-72, Sulziquelin-19
      sleep-architecture      Sleep architecture      7      Istlotide-90, Zorquazamide-70, Fenbeplexin-80, Grivvoxide-87, Jaxvoxide-48, Paxquelin-37, Zorgaplexin-30
      mitochondrial-function  Mitochondrial function  7      Paxtide-38, Zorquazamide-70, Sullodeplexin-10, Torrigatide-45, Lungaplexin-64, Xandetatide-62, Xanmitide-29
      "
    `);
  });
  it("search at 60 columns", async () => {
    expect(await screen(["search", "insulin"], 60)).toMatchInlineSnapshot(`
      "Peptides (9)
      ID              NAME           CATEGORIES      EVIDENCE
      quinquelin-54   Quinquelin-54  fat-loss, exp…  fda-approved
      brevritarin-81  Brevritarin-…  glp1-metabolic  insufficient
      drovoxide-72    Drovoxide-72   glp1-metabolic  preclinical
      orunequelin-46  Orunequelin-…  fat-loss        clinical-tri…
      paxtide-38      Paxtide-38     longevity, gl…  limited-human
      sulziquelin-19  Sulziquelin-…  fat-loss        insufficient
      tortarin-68     Tortarin-68    glp1-metabolic  preclinical
      tortide-51      Tortide-51     fat-loss, cog…  established-…
      xantarin-44     Xantarin-44    glp1-metabolic  preclinical

      Content (10)
      TITLE                         TYPE         PEPTIDE
      Research overview: Insulin …  article      unknown
      What has Brevritarin-81 bee…  peptide_faq  Brevritarin-81
      What has Drovoxide-72 been …  peptide_faq  Drovoxide-72
      What has Orunequelin-46 bee…  peptide_faq  Orunequelin-46
      What has Paxtide-38 been st…  peptide_faq  Paxtide-38
      What has Sulziquelin-19 bee…  peptide_faq  Sulziquelin-19
      What has Tortarin-68 been s…  peptide_faq  Tortarin-68
      What has Tortide-51 been st…  peptide_faq  Tortide-51
      What has Xantarin-44 been s…  peptide_faq  Xantarin-44
      What has Quinquelin-54 been…  peptide_faq  Quinquelin-54
      (url hidden for lack of width; use -o json)
      "
    `);
  });
  it("search at 80 columns", async () => {
    expect(await screen(["search", "insulin"], 80)).toMatchInlineSnapshot(`
      "Peptides (9)
      ID              NAME            CATEGORIES                 EVIDENCE
      quinquelin-54   Quinquelin-54   fat-loss, experimental     fda-approved
      brevritarin-81  Brevritarin-81  glp1-metabolic             insufficient
      drovoxide-72    Drovoxide-72    glp1-metabolic             preclinical
      orunequelin-46  Orunequelin-46  fat-loss                   clinical-trial
      paxtide-38      Paxtide-38      longevity, glp1-metabolic  limited-human
      sulziquelin-19  Sulziquelin-19  fat-loss                   insufficient
      tortarin-68     Tortarin-68     glp1-metabolic             preclinical
      tortide-51      Tortide-51      fat-loss, cognitive        established-human
      xantarin-44     Xantarin-44     glp1-metabolic             preclinical

      Content (10)
      TITLE  TYPE  PEP…  URL
      Rese…  art…  unk…  https://research.example/learn/articles/insulin-sensitivity
      What…  pep…  Bre…  https://research.example/peptides/brevritarin-81#faq-research
      What…  pep…  Dro…  https://research.example/peptides/drovoxide-72#faq-research
      What…  pep…  Oru…  https://research.example/peptides/orunequelin-46#faq-research
      What…  pep…  Pax…  https://research.example/peptides/paxtide-38#faq-research
      What…  pep…  Sul…  https://research.example/peptides/sulziquelin-19#faq-research
      What…  pep…  Tor…  https://research.example/peptides/tortarin-68#faq-research
      What…  pep…  Tor…  https://research.example/peptides/tortide-51#faq-research
      What…  pep…  Xan…  https://research.example/peptides/xantarin-44#faq-research
      What…  pep…  Qui…  https://research.example/peptides/quinquelin-54#faq-research
      "
    `);
  });
  it("search at 120 columns", async () => {
    expect(await screen(["search", "insulin"], 120)).toMatchInlineSnapshot(`
      "Peptides (9)
      ID              NAME            CATEGORIES                 EVIDENCE
      quinquelin-54   Quinquelin-54   fat-loss, experimental     fda-approved
      brevritarin-81  Brevritarin-81  glp1-metabolic             insufficient
      drovoxide-72    Drovoxide-72    glp1-metabolic             preclinical
      orunequelin-46  Orunequelin-46  fat-loss                   clinical-trial
      paxtide-38      Paxtide-38      longevity, glp1-metabolic  limited-human
      sulziquelin-19  Sulziquelin-19  fat-loss                   insufficient
      tortarin-68     Tortarin-68     glp1-metabolic             preclinical
      tortide-51      Tortide-51      fat-loss, cognitive        established-human
      xantarin-44     Xantarin-44     glp1-metabolic             preclinical

      Content (10)
      TITLE                                      TYPE    PEPTI…  URL
      Research overview: Insulin sensitivity     artic…  unkno…  https://research.example/learn/articles/insulin-sensitivity
      What has Brevritarin-81 been studied for?  pepti…  Brevr…  https://research.example/peptides/brevritarin-81#faq-research
      What has Drovoxide-72 been studied for?    pepti…  Drovo…  https://research.example/peptides/drovoxide-72#faq-research
      What has Orunequelin-46 been studied for?  pepti…  Orune…  https://research.example/peptides/orunequelin-46#faq-research
      What has Paxtide-38 been studied for?      pepti…  Paxti…  https://research.example/peptides/paxtide-38#faq-research
      What has Sulziquelin-19 been studied for?  pepti…  Sulzi…  https://research.example/peptides/sulziquelin-19#faq-research
      What has Tortarin-68 been studied for?     pepti…  Torta…  https://research.example/peptides/tortarin-68#faq-research
      What has Tortide-51 been studied for?      pepti…  Torti…  https://research.example/peptides/tortide-51#faq-research
      What has Xantarin-44 been studied for?     pepti…  Xanta…  https://research.example/peptides/xantarin-44#faq-research
      What has Quinquelin-54 been studied for?   pepti…  Quinq…  https://research.example/peptides/quinquelin-54#faq-research
      "
    `);
  });
  it("search at 200 columns", async () => {
    expect(await screen(["search", "insulin"], 200)).toMatchInlineSnapshot(`
      "Peptides (9)
      ID              NAME            CATEGORIES                 EVIDENCE
      quinquelin-54   Quinquelin-54   fat-loss, experimental     fda-approved
      brevritarin-81  Brevritarin-81  glp1-metabolic             insufficient
      drovoxide-72    Drovoxide-72    glp1-metabolic             preclinical
      orunequelin-46  Orunequelin-46  fat-loss                   clinical-trial
      paxtide-38      Paxtide-38      longevity, glp1-metabolic  limited-human
      sulziquelin-19  Sulziquelin-19  fat-loss                   insufficient
      tortarin-68     Tortarin-68     glp1-metabolic             preclinical
      tortide-51      Tortide-51      fat-loss, cognitive        established-human
      xantarin-44     Xantarin-44     glp1-metabolic             preclinical

      Content (10)
      TITLE                                      TYPE         PEPTIDE         URL
      Research overview: Insulin sensitivity     article      unknown         https://research.example/learn/articles/insulin-sensitivity
      What has Brevritarin-81 been studied for?  peptide_faq  Brevritarin-81  https://research.example/peptides/brevritarin-81#faq-research
      What has Drovoxide-72 been studied for?    peptide_faq  Drovoxide-72    https://research.example/peptides/drovoxide-72#faq-research
      What has Orunequelin-46 been studied for?  peptide_faq  Orunequelin-46  https://research.example/peptides/orunequelin-46#faq-research
      What has Paxtide-38 been studied for?      peptide_faq  Paxtide-38      https://research.example/peptides/paxtide-38#faq-research
      What has Sulziquelin-19 been studied for?  peptide_faq  Sulziquelin-19  https://research.example/peptides/sulziquelin-19#faq-research
      What has Tortarin-68 been studied for?     peptide_faq  Tortarin-68     https://research.example/peptides/tortarin-68#faq-research
      What has Tortide-51 been studied for?      peptide_faq  Tortide-51      https://research.example/peptides/tortide-51#faq-research
      What has Xantarin-44 been studied for?     peptide_faq  Xantarin-44     https://research.example/peptides/xantarin-44#faq-research
      What has Quinquelin-54 been studied for?   peptide_faq  Quinquelin-54   https://research.example/peptides/quinquelin-54#faq-research
      "
    `);
  });
  it("vendors list at 60 columns", async () => {
    expect(await screen(["vendors", "list", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "ID            NAME       COUNTRY  RATING  REVIEWS  CATEGORI…
      vnd_9a826af2  Neskax R…  NL       5       309      peptides…
      vnd_ef639d63  Jorvax S…  AU       4.5     379      peptides…
      vnd_d80adb24  Orvora S…  JP       4.9     53       peptides
      vnd_591ef5d7  Covaeld …  US       4.5     373      peptides…

      Links to vendors may be affiliate links: the site may earn a
      commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors list at 80 columns", async () => {
    expect(await screen(["vendors", "list", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "ID            NAME                 COUNTRY  RATING  REVIEWS  CATEGORIES
      vnd_9a826af2  Neskax Research Ma…  NL       5       309      peptides, capsules…
      vnd_ef639d63  Jorvax Supply        AU       4.5     379      peptides, sprays, …
      vnd_d80adb24  Orvora Sciences      JP       4.9     53       peptides
      vnd_591ef5d7  Covaeld Reagents     US       4.5     373      peptides, sprays, …

      Links to vendors may be affiliate links: the site may earn a commission.
      Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("vendors list at 120 columns", async () => {
    expect(await screen(["vendors", "list", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "ID            NAME                       COUNTRY  RATING  REVIEWS  CATEGORIES
      vnd_9a826af2  Neskax Research Materials  NL       5       309      peptides, capsules, other
      vnd_ef639d63  Jorvax Supply              AU       4.5     379      peptides, sprays, capsules
      vnd_d80adb24  Orvora Sciences            JP       4.9     53       peptides
      vnd_591ef5d7  Covaeld Reagents           US       4.5     373      peptides, sprays, capsules, other

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("vendors list at 200 columns", async () => {
    expect(await screen(["vendors", "list", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "ID            NAME                       COUNTRY  RATING  REVIEWS  CATEGORIES
      vnd_9a826af2  Neskax Research Materials  NL       5       309      peptides, capsules, other
      vnd_ef639d63  Jorvax Supply              AU       4.5     379      peptides, sprays, capsules
      vnd_d80adb24  Orvora Sciences            JP       4.9     53       peptides
      vnd_591ef5d7  Covaeld Reagents           US       4.5     373      peptides, sprays, capsules, other

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("prices at 60 columns", async () => {
    expect(await screen(["prices", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "VENDOR                     PRODUCT     PRICE       LAST SEEN
      Quintora Biochem Example   Brevritar…  50.13 GBP   2025-05-…
      Ilmulo Research Materials  Brevritar…  46.84 USD   2025-05-…
      Pellond Sciences           Brevritar…  20.39 EUR   2025-05-…
      Neskax Research Materials  Brevritar…  166.34 EUR  2025-05-…

      Links to vendors may be affiliate links: the site may earn a
      commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("prices at 80 columns", async () => {
    expect(await screen(["prices", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "VENDOR                     PRODUCT               PRICE       LAST SEEN
      Quintora Biochem Example   Brevritarin-81 lyop…  50.13 GBP   2025-05-30T16:00:0…
      Ilmulo Research Materials  Brevritarin-81 lyop…  46.84 USD   2025-05-30T23:00:0…
      Pellond Sciences           Brevritarin-81 solu…  20.39 EUR   2025-05-08T00:00:0…
      Neskax Research Materials  Brevritarin-81 solu…  166.34 EUR  2025-05-11T12:00:0…

      Links to vendors may be affiliate links: the site may earn a commission.
      Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("prices at 120 columns", async () => {
    expect(await screen(["prices", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "VENDOR                     PRODUCT                                                 PRICE       LAST SEEN
      Quintora Biochem Example   Brevritarin-81 lyophilized powder (lyophilized-powder)  50.13 GBP   2025-05-30T16:00:00Z
      Ilmulo Research Materials  Brevritarin-81 lyophilized powder (lyophilized-powder)  46.84 USD   2025-05-30T23:00:00Z
      Pellond Sciences           Brevritarin-81 solution (solution)                      20.39 EUR   2025-05-08T00:00:00Z
      Neskax Research Materials  Brevritarin-81 solution (solution)                      166.34 EUR  2025-05-11T12:00:00Z

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or
      offers are listed or their order.
      "
    `);
  });
  it("prices at 200 columns", async () => {
    expect(await screen(["prices", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "VENDOR                     PRODUCT                       PRICE       LAST SEEN             LINK
      Quintora Biochem Example   Brevritarin-81 lyophilized …  50.13 GBP   2025-05-30T16:00:00Z  https://quintora-biochem-example.example/p/brevritarin-81-lyophilized-powder-1k?ref=research-example&aff=sbx
      Ilmulo Research Materials  Brevritarin-81 lyophilized …  46.84 USD   2025-05-30T23:00:00Z  https://ilmulo-research-materials.example/p/brevritarin-81-lyophilized-powder-4t?ref=research-example&aff=sbx
      Pellond Sciences           Brevritarin-81 solution (so…  20.39 EUR   2025-05-08T00:00:00Z  https://pellond-sciences.example/p/brevritarin-81-solution-4j?ref=research-example&aff=sbx
      Neskax Research Materials  Brevritarin-81 solution (so…  166.34 EUR  2025-05-11T12:00:00Z  https://neskax-research-materials.example/p/brevritarin-81-solution-p?ref=research-example&aff=sbx

      Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.
      "
    `);
  });
  it("products at 60 columns", async () => {
    expect(await screen(["products", "--limit", "4"], 60)).toMatchInlineSnapshot(`
      "NAME                          PEPTIDE         FORM
      Brevritarin-81 lyophilized …  Brevritarin-81  lyophilized-p…
      Brevritarin-81 solution       Brevritarin-81  solution
      Brevsotarin-28 lyophilized …  Brevsotarin-28  lyophilized-p…
      Brevsotarin-28 solution       Brevsotarin-28  solution
      "
    `);
  });
  it("products at 80 columns", async () => {
    expect(await screen(["products", "--limit", "4"], 80)).toMatchInlineSnapshot(`
      "NAME                     PEP…  FORM  PRICES
      Brevritarin-81 lyophil…  Bre…  lyo…  50.13 GBP (1 offer), 46.84 USD (1 offer)
      Brevritarin-81 solution  Bre…  sol…  20.39–166.34 EUR (2 offers)
      Brevsotarin-28 lyophil…  Bre…  lyo…  1249.00 GBP (1 offer), 135.75 NZD (1 offer)
      Brevsotarin-28 solution  Bre…  sol…  437.03 EUR (1 offer)
      "
    `);
  });
  it("products at 120 columns", async () => {
    expect(await screen(["products", "--limit", "4"], 120)).toMatchInlineSnapshot(`
      "NAME                               PEPTIDE         FORM                PRICES
      Brevritarin-81 lyophilized powder  Brevritarin-81  lyophilized-powder  50.13 GBP (1 offer), 46.84 USD (1 offer)
      Brevritarin-81 solution            Brevritarin-81  solution            20.39–166.34 EUR (2 offers)
      Brevsotarin-28 lyophilized powder  Brevsotarin-28  lyophilized-powder  1249.00 GBP (1 offer), 135.75 NZD (1 offer)
      Brevsotarin-28 solution            Brevsotarin-28  solution            437.03 EUR (1 offer)
      "
    `);
  });
  it("products at 200 columns", async () => {
    expect(await screen(["products", "--limit", "4"], 200)).toMatchInlineSnapshot(`
      "NAME                               PEPTIDE         FORM                PRICES
      Brevritarin-81 lyophilized powder  Brevritarin-81  lyophilized-powder  50.13 GBP (1 offer), 46.84 USD (1 offer)
      Brevritarin-81 solution            Brevritarin-81  solution            20.39–166.34 EUR (2 offers)
      Brevsotarin-28 lyophilized powder  Brevsotarin-28  lyophilized-powder  1249.00 GBP (1 offer), 135.75 NZD (1 offer)
      Brevsotarin-28 solution            Brevsotarin-28  solution            437.03 EUR (1 offer)
      "
    `);
  });
});

const CARDS: readonly (readonly string[])[] = [
  ["peptides", "get", "brevritarin-81"],
  ["peptides", "research", "brevritarin-81"],
  ["peptides", "regulatory", "brevritarin-81"],
  ["studies", "get", "pmid-90001067"],
  ["vendors", "get", "vnd_9a826af2"],
  ["vendors", "shipping", "vnd_9a826af2"],
];
const PLACEHOLDERS = new Set(["not documented", "none", "unknown", "yes", "no"]);
const URL = /https?:\/\/\S+/g;
const STUDY_ID = /\b(?:pmid-\d+|doi-10\.[\w.-]+|nct-\w+)\b/g;

/** The facts a card states: each labelled line's value, and each study id outside links. */
function factsOf(text: string): { values: string[]; studies: string[] } {
  const values: string[] = [];
  const studies: string[] = [];
  for (const line of text.split("\n")) {
    studies.push(...(line.replace(URL, "").match(STUDY_ID) ?? []));
    const m = /^ {0,4}(?![•(])(\S(?:.*?\S)?) {2,}(\S.*)$/.exec(line);
    if (m?.[2] !== undefined && !PLACEHOLDERS.has(m[2]) && !/^[\d.]+$/.test(m[2])) values.push(m[2]);
  }
  return { values, studies };
}

const repeated = (xs: string[]) => xs.filter((x, i) => xs.indexOf(x) !== i);

describe("each fact once", () => {
  it.each(CARDS.map((argv) => [argv.join(" "), argv] as const))("pep %s", async (_, argv) => {
    for (const columns of [60, 200]) {
      const { values, studies } = factsOf(await screen(argv, columns));
      expect(values.length).toBeGreaterThan(2);
      expect(repeated(values), `${columns} columns`).toEqual([]);
      expect(repeated(studies), `${columns} columns`).toEqual([]);
    }
  });

  it("a card's id is whole at 60 columns", async () => {
    for (const argv of CARDS.slice(0, 6)) {
      const text = await screen(argv, 60);
      expect(text.split("\n").some((l) => /^ *(?:Peptide )?ID {2,}/.test(l) && l.endsWith(` ${argv[2]}`))).toBe(true);
    }
  });
});
