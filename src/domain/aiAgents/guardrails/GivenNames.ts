/**
 * Common given names and surnames, lower case, written from general knowledge:
 * the most frequent given names of the US Social Security Administration's
 * yearly lists (1950s to 2010s), the commonest given names of western and
 * northern Europe, Latin America, Japan and China as seen in international
 * directories, and the most frequent surnames of the US census. Names that
 * are also everyday English words are listed apart: they count only with
 * more evidence (a capital letter and a surname, or a cue like "my name is").
 */

const words = (list: string): ReadonlySet<string> => new Set(list.trim().split(/\s+/))

/** Given names that are rarely anything else. */
export const GIVEN_NAMES = words(`
aaron abigail abraham adam adrian adriana agnes ahmed aidan aiden aisha alan albert alberto alejandro alex alexa
alexander alexandra alexandre alexandria alexis alfred alfredo ali alice alicia alison allison alma alvaro alyssa
amanda amelia amir amy ana anastasia anders andrea andreas andres andrew andrey andy angela angelica angelina angelo
anita ann anna anne annette annie anthony antoine antonio anton antonia ariana ariel arjun arnold arthur ashley astrid
audrey ava barbara beatrice beatriz becky belinda ben benjamin bernard bernadette bertha beth bethany betty beverly
bianca bjorn blake bobby bogdan bonnie boris bradley brandon brenda brendan brian briana brittany bruce bruno bryan
caleb camila camille candace carl carla carlos carmen carol carole caroline carolyn casey cassandra catherine cecilia
cedric celine charles charlie charlotte chelsea cheryl chiara chloe chris christina christine christopher cindy claire
clara clarence claudia claudio colin connor constance cristina cynthia daisuke dalia damian daniel daniela danielle
danny daria darius darren david deborah debra denis denise dennis derek diana diane diego dimitri dmitri dmitry
dolores dominic dominique donald donna doris dorothy douglas duncan dylan edgar edith eduardo edward edwin eileen
elaine elena eleanor eli elias elijah elisa elisabeth eliza elizabeth ella ellen elliot eloise elsa emil emilia emilio
emily emma emmanuel enrique eric erica erik erika erin ernest ernesto esther ethan eugene eva evan evelyn fabian
fatima federico felipe felix fernando fiona francesca francesco francis francisco franz freddie frederick frederik
gabriel gabriela gabriella gabrielle gareth gary gavin genevieve geoffrey george gerald gerard gerhard giovanni giulia
giuseppe gladys gloria gonzalo gordon gregory greta guillaume gustav gustavo hailey haley hamza hannah hans harold
harriet harvey hassan hayley heather heidi helen helena helga henri henrik henry herbert hiroshi howard hugo ian
ibrahim ignacio igor ilya ines ingrid irene isaac isabel isabella isabelle ivan jacob jacqueline jaime jakob james
jamie jana jane janet janice jared jasmine jason javier jeffrey jennifer jenny jeremy jerome jesse jessica jill joan
joanna joanne joao joaquin jocelyn joe joel johan johanna john johnny jonas jonathan jorge jose josef joseph josephine
joshua juan judith judy julia julian juliana julie julien juliet julio justin kai karen karin karina karl kasper
katarina kate katherine kathleen kathryn kathy katie katrin kayla keith kelly kenji kenneth kevin kimberly kirsten
klaus kristen kristin kristina kurt kyle lara larry laura lauren laurence lawrence leah leila lena leo leon leonard
leonardo leonie liam linda lindsay lindsey lisa lorenzo loretta lori louis louise lucas lucia luciana lucy luis luisa
luka lukas lydia madeline madison magdalena magnus maja malcolm manuel marc marcel marcela marco marcos marcus
margaret margarita maria mariana marianne marie marilyn mario marion marisol marjorie marta martha martin martina
marvin mary mason mateo matilda matteo matthew matthias maureen maurice maxime maya megan mehmet melanie melissa
melvin mia michael michel michelle miguel mikael mikhail milan mildred miriam mohamed mohammed monica monika morgan
muhammad nadia nancy naomi natalia natalie natasha nathan nathaniel nicholas nicola nicolas nicole niels nikita
nikolai nikolaj nina noah noemi nora norma olga oliver olivia omar oscar otto pablo pamela paola patricia patrick paul
paula pauline pedro peter petra philip philippe phillip pierre pietro piotr priscilla rachel rafael raphael ramon
randall randy raquel raul rebecca regina reginald renata rene renee ricardo richard rita robert roberta roberto robin
rodrigo roger roland ronald rosa rosemary ross ruth ryan sabrina sally samantha samuel sandra sara sarah sean
sebastian sergei sergey sergio seth shane shannon sharon shawn sheila shirley simon simone sofia sofie sonia sophia
sophie stacy stanley stefan stefanie stella stephanie stephen steven stuart susan susanne suzanne sven sylvia takashi
tamara tanya tatiana teresa thea theodore theresa thomas tiffany timothy tina tobias todd tom tomas tommy tony tracy
travis trevor tyler ursula valentina valerie vanessa vera veronica victor vincent viktor vivian walter wanda wayne
wendy werner wesley william willem wolfgang xavier yasmin yolanda yuki yusuf yvonne zachary zoe zofia aarav aditya
akira amit ananya anil anjali arun deepak divya haruto hina hiro kenta kumar lakshmi mei ming priya rahul raj rajesh
ravi rohan sakura sanjay shreya sunil vijay wei yan yuto yui aleksander aleksandra andrzej bartosz dorota ewa grzegorz
jakub jerzy joanna kamil katarzyna krzysztof lukasz malgorzata marek mariusz michal pawel tomasz wojciech zbigniew
jiri jana petr pavel lenka tereza martina vaclav zuzana aino eino elina juha jukka kari leena matti mikko pekka riikka
sanna timo tuomas ville bjarne erling freya gunnar hilde ingrid jens kjell lars lasse linnea mette nils ole rasmus
sigrid solveig stig thor tove ulf ulrika bram daan dirk femke hendrik jeroen joost lieke maarten noortje pieter ruud
sanne thijs wouter aurelie benoit camille chantal clement didier etienne fabienne francois gilles helene jacques
jerome laetitia manon mathieu nathalie olivier pascal sandrine sebastien stephane sylvie thierry valerie yannick ahmet
ayse emre fatma mustafa zeynep andrei bogdana ciprian ioana mihai vlad dmitriy ekaterina irina kirill natalya oksana
sergiy svetlana yulia yury
`)

/** Given names that are also everyday words ("will", "may", "grace"): they need more evidence. */
export const AMBIGUOUS_GIVEN_NAMES = words(`
amber angel april art august austin autumn bill bob brook candy carol chance chase chip christian clay cliff crystal
dale dawn dean destiny don drew dusty eve faith florence frank gene georgia ginger glen grace guy harry hazel heath
hector holly hope hunter iris ivy jack jade jay jean jesus jordan joy june ken king lane lee lily marina mark marshall
mason max maxim may melody miles misty nick norm olive paris pat patience pearl penny ray reed rich river rob robin
rocky rose ruby rusty sage sandy scott sierra sky skye stone summer sunny terry tim victoria violet virginia wade ward
will woody young
`)

/** Frequent surnames (US census and European directories) that are rarely anything else. */
export const SURNAMES = words(`
smith johnson williams jones garcia miller davis rodriguez martinez hernandez lopez gonzalez wilson anderson taylor
moore jackson thompson harris sanchez clark ramirez lewis robinson walker allen wright torres nguyen flores adams
nelson rivera campbell mitchell roberts gomez phillips evans turner diaz parker cruz edwards collins reyes stewart
morris morales rogers gutierrez ortiz cooper peterson bailey howard ramos kim cox richardson watson brooks chavez
bennett mendoza ruiz hughes alvarez castillo sanders patel myers ross foster jimenez powell jenkins sullivan coleman
butler henderson barnes gonzales fisher vasquez simmons romero patterson hamilton graham reynolds griffin wallace
moreno bryant herrera gibson ellis tran medina aguilar stevens murray castro owens harrison fernandez mcdonald
washington kennedy vargas chen freeman webb tucker guzman burns crawford olson simpson gordon mendez silva shaw snyder
dixon munoz hicks holmes palmer wagner robertson boyd salazar warren meyer schmidt garza daniels ferguson nichols
stephens soto weaver gardner payne dunn kelley spencer hawkins arnold pierce vazquez hansen peters santos bradley
knight elliott cunningham duncan armstrong hudson carroll riley andrews alvarado delgado berry perkins hoffman
johnston matthews pena richards willis lawrence sandoval mueller muller schneider fischer weber becker schulz koch
richter klein schroeder neumann schwarz zimmermann braun hofmann hartmann lange krause lehmann rossi russo ferrari
esposito bianchi romano colombo ricci marino greco gallo conti deluca costa giordano mancini rizzo lombardi moretti
dubois durand leroy moreau laurent lefebvre bertrand roux fournier girard bonnet dupont lambert fontaine rousseau
jansen janssen devries vandenberg bakker visser smit meijer mulder bos vos peeters maes jacobs mertens willems claes
goossens wouters nielsen jensen pedersen andersen christensen larsen sorensen rasmussen johansson karlsson nilsson
eriksson larsson olsson persson svensson gustafsson pettersson jonsson korhonen virtanen nieminen makinen hamalainen
laine heikkinen koskinen jarvinen lehtonen nowak kowalski wisniewski wojcik kowalczyk kaminski lewandowski zielinski
szymanski novak svoboda novotny dvorak cerny horvath nagy toth szabo kovacs varga kiss molnar ivanov smirnov kuznetsov
popov sokolov petrov volkov kozlov novikov morozov popescu ionescu yilmaz kaya demir sahin celik suzuki takahashi
tanaka watanabe ito yamamoto nakamura kobayashi kato yoshida yamada sasaki yamaguchi matsumoto inoue kimura hayashi
shimizu wang li zhang liu yang huang zhao wu zhou xu zhu guo lin gao luo zheng singh kumar sharma gupta shah khan ali
ahmed hussain rahman oconnor obrien walsh byrne
`)
